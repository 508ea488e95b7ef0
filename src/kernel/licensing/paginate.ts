/**
 * Walks every page of a list. The spec gives no total count and no maximum page size
 * (licensing-api.md, Limits), so the walk asks for a large page, stops on a short page, and if the
 * server refuses the large size with a 400 on the first page, retries the walk at the documented
 * default of 10, and keeps 10 for every later walk once that first page is accepted.
 */
import { BadRequestError } from './errors.js';
import type { Logger } from './types.js';

/** licensing-api.md, Limits: default page size 10. */
export const SERVER_DEFAULT_PAGE_SIZE = 10;
/** A guard against a server that ignores `page` and repeats itself forever. */
const MAX_PAGES = 10_000;

export type PageFetcher<T> = (page: number, pageSize: number) => Promise<T[]>;

export interface Paginator {
  all<T extends { id: string }>(fetchPage: PageFetcher<T>): Promise<T[]>;
  /** The size the next walk will ask for. */
  pageSize(): number;
}

export function createPaginator(options: { pageSize: number; logger?: Logger | undefined }): Paginator {
  let size = Math.max(1, Math.floor(options.pageSize));

  /**
   * One walk keeps one page size from start to end (pages of another size would not line up). `fallback`:
   * this walk is the retry at the default size after the larger one was refused.
   */
  async function walk<T extends { id: string }>(fetchPage: PageFetcher<T>, fallback = false): Promise<T[]> {
    const pageSize = fallback ? SERVER_DEFAULT_PAGE_SIZE : size;
    const seen = new Map<string, T>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      let items: T[];
      try {
        items = await fetchPage(page, pageSize);
      } catch (error) {
        if (page === 1 && !fallback && error instanceof BadRequestError && pageSize > SERVER_DEFAULT_PAGE_SIZE) {
          return walk(fetchPage, true);
        }
        throw error;
      }
      // The 400 was about the size only if the default size is accepted: only then keep it for later walks.
      if (page === 1 && fallback && size !== pageSize) {
        options.logger?.info('licensing page size refused; using the default from now on', {
          refused: size,
          pageSize,
        });
        size = pageSize;
      }
      let added = 0;
      // Items can shift between pages while a write happens mid-walk: keep each id once.
      for (const item of items) {
        if (!seen.has(item.id)) added++;
        seen.set(item.id, item);
      }
      if (items.length < pageSize || added === 0) break;
    }
    return [...seen.values()];
  }

  return { all: (fetchPage) => walk(fetchPage), pageSize: () => size };
}
