/** What every resource file receives from createLicensingClient (index.ts), and the list shape they share. */
import type * as z from 'zod';
import type { ListQuery } from '../domain/types.js';
import type { ReadCache } from './cache.js';
import type { Paginator } from './paginate.js';
import type { Requester } from './request.js';
import type { CallOptions } from './types.js';

export interface ResourceDeps {
  request: Requester;
  cache: ReadCache;
  paginator: Paginator;
}

export interface PagedList<T> {
  /** One page of GET `template`. */
  list(query?: ListQuery, opts?: CallOptions): Promise<T[]>;
  /** Every page of it, walked by the paginator. */
  all(query?: { includeInactive?: boolean }, opts?: CallOptions): Promise<T[]>;
}

/** `list` and `all` of a list endpoint that takes ListQuery (GET /v1/licenses, GET /v1/students). */
export function pagedList<T extends { id: string }>(
  { request, paginator }: Pick<ResourceDeps, 'request' | 'paginator'>,
  template: string,
  schema: z.ZodType<T[]>,
): PagedList<T> {
  const list: PagedList<T>['list'] = (query, opts) =>
    request({ method: 'GET', template, query: { ...query }, schema }, opts);
  return {
    list,
    all: (query, opts) => paginator.all((page, pageSize) => list({ ...query, page, pageSize }, opts)),
  };
}
