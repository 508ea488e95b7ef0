/**
 * `/licenses history`: whose or what history is asked for, and one page of it (docs/history.md). The
 * service (services/history.ts) reads it from the audit table; the builder (blocks/history.ts) words it.
 */
import type { AuditEntry } from './audit-entry.js';

/**
 * What the entries are about. Pool and license ids have one format (domain/ids.ts), so an id is looked
 * for as both.
 */
export type HistorySubject =
  | { kind: 'email'; email: string }
  /** A Slack member: what they did, their course requests, and (when Slack gave it) their e-mail's entries. */
  | { kind: 'user'; userId: string; email?: string }
  | { kind: 'id'; id: string };

/** `[days]`: 1 to 36,500 (about a hundred years, as AUDIT_RETENTION_DAYS). */
export const MAX_HISTORY_DAYS = 36_500;

/** Entries a page. */
export const HISTORY_PAGE_SIZE = 10;

export interface HistoryQuery {
  subject: HistorySubject;
  /** The window asked for, in days back from `since`'s moment; absent: all entries. */
  days?: number;
  /** UTC ISO: the window's start, fixed when the history was first asked for (so pages agree). */
  since?: string;
}

export interface HistoryItem {
  /** The audit row's id: the cursor of the page. */
  id: number;
  entry: AuditEntry;
}

export interface HistoryPage extends HistoryQuery {
  /** 1 for the newest entries. */
  page: number;
  /** Newest first. */
  items: HistoryItem[];
  hasNewer: boolean;
  hasOlder: boolean;
  /** The ids of the page's newest and oldest rows: where Previous and Next go on from. */
  newestId?: number;
  oldestId?: number;
  /** Why the member's e-mail was not searched (Slack did not give it), as a sentence; user subjects only. */
  emailProblem?: string;
}
