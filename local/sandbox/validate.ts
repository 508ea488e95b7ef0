/**
 * Reading what a client sent: JSON bodies, e-mail addresses, YYYY-MM-DD dates and list parameters.
 * Each failure is a 400 with a message that names the field (licensing-api.md, Errors: 400 "Details
 * are in the response body").
 */
import type { AssignRequest } from '../../src/kernel/domain/types.js';
import { parseCalendarDay } from './dates.js';
import { badRequest } from './errors.js';

export interface ListParams {
  page: number;
  pageSize: number;
  includeInactive: boolean;
}

/** Defaults of licensing-api.md, Limits: page 1, page size 10. */
export const DEFAULT_PAGE_SIZE = 10;
export const DEFAULT_MAX_PAGE_SIZE = 100;

export function parseJsonObject(raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest('invalid_body', 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('invalid_body', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** Deliberately plain: one @, a local part without spaces or angle brackets, a dotted domain. */
const EMAIL =
  /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

function readDay(value: unknown, field: string): string {
  if (typeof value !== 'string') throw badRequest('invalid_date', `${field} must be a date written YYYY-MM-DD.`);
  const day = parseCalendarDay(value);
  if (day === undefined) {
    throw badRequest(
      'invalid_date',
      `${field} ${JSON.stringify(value)} is not a real calendar date written YYYY-MM-DD.`,
    );
  }
  return day;
}

export function readAssignBody(
  body: Record<string, unknown>,
): Required<Pick<AssignRequest, 'email' | 'recycle'>> & Pick<AssignRequest, 'name' | 'endDate'> {
  const { email, name, endDate, recycle } = body;
  if (email === undefined) throw badRequest('invalid_body', 'email is required.');
  if (typeof email !== 'string' || !isEmail(email.trim())) {
    throw badRequest('invalid_email', `${JSON.stringify(email)} is not a valid e-mail address.`);
  }
  if (name !== undefined && typeof name !== 'string') throw badRequest('invalid_body', 'name must be a string.');
  if (recycle !== undefined && typeof recycle !== 'boolean') {
    throw badRequest('invalid_body', 'recycle must be true or false.');
  }
  const result: ReturnType<typeof readAssignBody> = { email: email.trim(), recycle: recycle ?? false };
  if (name !== undefined && name.trim() !== '') result.name = name.trim();
  if (endDate !== undefined) result.endDate = readDay(endDate, 'endDate');
  return result;
}

export function readPatchBody(body: Record<string, unknown>): { endDate: string } {
  if (body.endDate === undefined) throw badRequest('invalid_body', 'endDate is required.');
  return { endDate: readDay(body.endDate, 'endDate') };
}

function positiveInt(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw badRequest('invalid_query', `${name} must be a whole number of at least 1, not ${JSON.stringify(raw)}.`);
  }
  return Number(raw);
}

export function readBoolean(query: URLSearchParams, name: string): boolean {
  const raw = query.get(name);
  if (raw === null) return false;
  const value = raw.toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0' || value === '') return false;
  throw badRequest('invalid_query', `${name} must be true or false, not ${JSON.stringify(raw)}.`);
}

export function readListParams(query: URLSearchParams, maxPageSize: number): ListParams {
  const page = positiveInt(query, 'page', 1);
  const pageSize = positiveInt(query, 'pageSize', DEFAULT_PAGE_SIZE);
  if (pageSize > maxPageSize) {
    throw badRequest('invalid_query', `pageSize ${pageSize} is too large; the largest page size is ${maxPageSize}.`);
  }
  return { page, pageSize, includeInactive: readBoolean(query, 'includeInactive') };
}

/** A page past the end is an empty array, as a list without page metadata must answer it. */
export function paginate<T>(items: readonly T[], { page, pageSize }: ListParams): T[] {
  return items.slice((page - 1) * pageSize, page * pageSize);
}
