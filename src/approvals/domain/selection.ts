/**
 * Which waiting requests an admin ticked in `/licenses approvals`, kept across pages in the modal's
 * private_metadata (3,000 characters): the page shown and the ticked requests' ids, each written as its
 * 12 hex digits without the leading `r`. At most MAX_SELECTED at once, so the metadata always fits.
 * What the payload carries is a hint, never authority: every id is read again, and checked against
 * the admin's pools, when the selection is decided.
 */
import * as z from 'zod';

/** The most requests one confirmation decides: 200 ids of 12 digits take 2,400 of the 3,000 characters. */
export const MAX_SELECTED = 200;

/** Requests per page: at most 40 checkbox groups of one pool each, well under a modal's 100 blocks. */
export const PAGE_SIZE = 40;

/** Checkbox options per group (Slack's limit for a checkboxes element). */
export const PER_GROUP = 10;

export interface Selection {
  /** The page shown, from 0. */
  page: number;
  /** The ticked requests' ids (`r` and 12 hex digits), each once. */
  ids: string[];
}

const ID = /^r[0-9a-f]{12}$/;
const Meta = z.object({ p: z.number().int().min(0).max(10_000), s: z.string().regex(/^(?:[0-9a-f]{12})*$/) });

export function encodeSelection(selection: Selection): string {
  return JSON.stringify({ p: selection.page, s: selection.ids.map((id) => id.slice(1)).join('') });
}

/** The selection a view carries, or undefined when it was altered. */
export function decodeSelection(raw: string | undefined): Selection | undefined {
  try {
    const parsed = Meta.safeParse(JSON.parse(raw ?? ''));
    if (!parsed.success) return undefined;
    const ids = parsed.data.s.match(/.{12}/g)?.map((hex) => `r${hex}`) ?? [];
    if (ids.length > MAX_SELECTED) return undefined;
    return { page: parsed.data.p, ids: [...new Set(ids)] };
  } catch {
    return undefined;
  }
}

/**
 * The selection after a page's checkboxes were read: the requests shown on the page are ticked
 * exactly as `ticked` says; those of other pages stay as they were. Ids of another shape are dropped.
 */
export function mergePage(selected: readonly string[], shown: readonly string[], ticked: readonly string[]): string[] {
  const onPage = new Set(shown);
  const kept = selected.filter((id) => !onPage.has(id));
  const added = ticked.filter((id) => onPage.has(id) && ID.test(id));
  return [...new Set([...kept, ...added])];
}

/** The pages a list of `count` requests takes (at least one). */
export function pageCount(count: number): number {
  return Math.max(1, Math.ceil(count / PAGE_SIZE));
}

/** The page asked for, within the pages there are now (the list may have shrunk meanwhile). */
export function clampPage(page: number, count: number): number {
  return Math.min(Math.max(0, page), pageCount(count) - 1);
}
