/**
 * What a navigation button leads to, and its one codec. In code a target has readable fields
 * (`{ view: 'pool', poolId, page, includeInactive }`); on the wire, in the button's value, it is compact
 * JSON with one-letter keys (`{"v":"pool","p":"2001","n":1,"i":0}`), far under Slack's 2,000 characters.
 * The wire format is the one buttons already posted in Slack carry, so it never changes: new fields get
 * new keys. The target only says which page to show, never who may see it: the role is checked again
 * on every click. Builders encode; the navigation listener decodes (and so validates) a value.
 */
import * as z from 'zod';
import { type HistorySubject, MAX_HISTORY_DAYS } from '../domain/history.js';
import { ID_PATTERN } from '../domain/ids.js';

export type NavTarget =
  | { view: 'pools'; page: number }
  | { view: 'pool'; poolId: string; page: number; includeInactive: boolean }
  | { view: 'list'; page: number; includeInactive: boolean }
  | { view: 'expiring'; days: number; page: number }
  | { view: 'students'; page: number }
  | { view: 'courses'; page: number }
  | { view: 'show'; licenseId: string }
  /**
   * `/licenses history`: `since` (UTC ISO, to the second) fixes the window of `days` when first asked;
   * `before` / `after` are the keyset cursors of Next and Previous (audit row ids).
   */
  | {
      view: 'history';
      subject: HistorySubject;
      days?: number;
      since?: string;
      page: number;
      before?: number;
      after?: number;
    };

export type NavView = NavTarget['view'];
export type NavTargetOf<V extends NavView> = Extract<NavTarget, { view: V }>;

/** The highest page a command or a button may ask for. */
export const MAX_PAGE = 10_000;
/** `/licenses expiring [days]`: 1 to 365 days ahead. */
export const MAX_EXPIRING_DAYS = 365;

const id = z.string().regex(ID_PATTERN);
const page = z.number().int().min(1).max(MAX_PAGE);
const flag = z.union([z.literal(0), z.literal(1)]);
const rowId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;
const EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;
const email = z.string().max(254).regex(EMAIL);

/** The wire format: exactly what buttons already in Slack carry (keys v, n, p, i, l; d is new). */
const wireSchema = z.discriminatedUnion('v', [
  z.object({ v: z.literal('pools'), n: page }),
  z.object({ v: z.literal('pool'), p: id, n: page, i: flag }),
  z.object({ v: z.literal('list'), n: page, i: flag }),
  z.object({ v: z.literal('expiring'), d: z.number().int().min(1).max(MAX_EXPIRING_DAYS), n: page }),
  z.object({ v: z.literal('students'), n: page }),
  z.object({ v: z.literal('courses'), n: page }),
  z.object({ v: z.literal('show'), l: id }),
  // k: e (e-mail in q), u (member u, their e-mail in q when known), i (license or pool id in q);
  // d: days, t: the window's start (Unix seconds), n: page, b / a: before / after row id.
  z.object({
    v: z.literal('history'),
    k: z.enum(['e', 'u', 'i']),
    q: z.string().max(254).optional(),
    u: z.string().regex(USER_ID).optional(),
    d: z.number().int().min(1).max(MAX_HISTORY_DAYS).optional(),
    t: z.number().int().min(-1e11).max(1e11).optional(),
    n: page,
    b: rowId.optional(),
    a: rowId.optional(),
  }),
]);

type Wire = z.infer<typeof wireSchema>;

function fromWire(w: Wire): NavTarget {
  switch (w.v) {
    case 'pools':
    case 'students':
    case 'courses':
      return { view: w.v, page: w.n };
    case 'pool':
      return { view: 'pool', poolId: w.p, page: w.n, includeInactive: w.i === 1 };
    case 'list':
      return { view: 'list', page: w.n, includeInactive: w.i === 1 };
    case 'expiring':
      return { view: 'expiring', days: w.d, page: w.n };
    case 'show':
      return { view: 'show', licenseId: w.l };
    case 'history':
      return historyFromWire(w);
  }
}

type HistoryWire = Extract<Wire, { v: 'history' }>;

/** A history target whose subject is whole; else undefined (the decoder refuses it). */
function historySubjectOf(w: HistoryWire): HistorySubject | undefined {
  if (w.k === 'e') return w.q !== undefined && email.safeParse(w.q).success ? { kind: 'email', email: w.q } : undefined;
  if (w.k === 'i') return w.q !== undefined && ID_PATTERN.test(w.q) ? { kind: 'id', id: w.q } : undefined;
  if (w.u === undefined) return undefined;
  if (w.q !== undefined && !email.safeParse(w.q).success) return undefined;
  return { kind: 'user', userId: w.u, ...(w.q !== undefined ? { email: w.q } : {}) };
}

function historyFromWire(w: HistoryWire): NavTarget {
  const subject = historySubjectOf(w);
  if (!subject) throw new Error('not a history subject');
  return {
    view: 'history',
    subject,
    ...(w.d !== undefined ? { days: w.d } : {}),
    ...(w.t !== undefined ? { since: new Date(w.t * 1000).toISOString() } : {}),
    page: w.n,
    ...(w.b !== undefined ? { before: w.b } : {}),
    ...(w.a !== undefined ? { after: w.a } : {}),
  };
}

function historyToWire(t: NavTargetOf<'history'>): HistoryWire {
  const s = t.subject;
  const since = t.since === undefined ? Number.NaN : Date.parse(t.since);
  return {
    v: 'history',
    k: s.kind === 'email' ? 'e' : s.kind === 'user' ? 'u' : 'i',
    ...(s.kind === 'email' ? { q: s.email } : s.kind === 'id' ? { q: s.id } : s.email ? { q: s.email } : {}),
    ...(s.kind === 'user' ? { u: s.userId } : {}),
    ...(t.days !== undefined ? { d: t.days } : {}),
    ...(Number.isNaN(since) ? {} : { t: Math.floor(since / 1000) }),
    n: t.page,
    ...(t.before !== undefined ? { b: t.before } : {}),
    ...(t.after !== undefined ? { a: t.after } : {}),
  };
}

/** Key order as the buttons in Slack have it, so the same target gives the same value as before. */
function toWire(t: NavTarget): Wire {
  switch (t.view) {
    case 'pools':
    case 'students':
    case 'courses':
      return { v: t.view, n: t.page };
    case 'pool':
      return { v: 'pool', p: t.poolId, n: t.page, i: t.includeInactive ? 1 : 0 };
    case 'list':
      return { v: 'list', n: t.page, i: t.includeInactive ? 1 : 0 };
    case 'expiring':
      return { v: 'expiring', d: t.days, n: t.page };
    case 'show':
      return { v: 'show', l: t.licenseId };
    case 'history':
      return historyToWire(t);
  }
}

/** The one codec: decode validates the wire shape and gives the readable target; encode goes back. */
export const navCodec = z.codec(wireSchema, z.custom<NavTarget>(), { decode: fromWire, encode: toWire });

/**
 * The button value for `target`. Never throws: a target the decoder would refuse (an odd id from the
 * API, a page past MAX_PAGE) gives a button that answers "no longer works", not a failed message.
 */
export function encodeNav(target: NavTarget): string {
  return JSON.stringify(toWire(target));
}

/** A button value back into a target; undefined for anything that is not one (forged, old, cut). */
export function decodeNav(value: string | undefined): NavTarget | undefined {
  if (value === undefined || value.length > 2000) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return undefined;
  }
  try {
    const decoded = navCodec.safeDecode(json as Wire);
    return decoded.success ? decoded.data : undefined;
  } catch {
    // A history target whose subject is not whole (fromWire refuses it).
    return undefined;
  }
}

/** Ten rows a page everywhere: readable, and far below 50 blocks per message. */
export const PAGE_SIZE = 10;
