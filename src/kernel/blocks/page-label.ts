/**
 * How every paged view names its page, one way: "page 2 of 5" when the total is known, "page 2, more
 * after" where the licensing API gives no total and a full page suggests more, and a plain sentence for
 * a page past the end.
 */
import { count } from '../domain/count.js';

export function pageCount(items: number, size: number): number {
  return Math.max(1, Math.ceil(items / size));
}

/** Known total: the page asked for, clamped, and a sentence when it did not exist. */
export function clampPage(page: number, pages: number): { current: number; missing?: string } {
  if (page <= pages) return { current: Math.max(1, page) };
  return { current: pages, missing: `There is no page ${page}: the list has ${count(pages, 'page')}.` };
}

export function pageOf(current: number, pages: number): string {
  return `page ${current} of ${pages}`;
}

/**
 * Unknown total (the API pages without counting): a page with rows and no next one is the last, so its
 * number is the total; a full page may have more after it.
 */
export function openPageLabel(page: number, rows: number, hasNext: boolean): string {
  if (hasNext) return `page ${page}, more after`;
  return rows > 0 || page === 1 ? pageOf(page, page) : `page ${page}`;
}

/** A page past the end of a list whose total the API does not give. */
export function missingOpenPage(page: number): string {
  return `There is no page ${page}: the list ends before it. Go back to page 1.`;
}
