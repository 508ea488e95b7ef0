/**
 * What a navigation button leads to, and its one codec. In code a target has readable fields
 * (`{ view: 'pool', poolId, page, includeInactive }`); on the wire, in the button's value, it is compact
 * JSON with one-letter keys (`{"v":"pool","p":"2001","n":1,"i":0}`), far under Slack's 2,000 characters.
 * The wire format is the one buttons already posted in Slack carry, so it never changes: new fields get
 * new keys. The target only says which page to show, never who may see it: the role is checked again
 * on every click. Builders encode; the navigation listener decodes (and so validates) a value.
 */
import { z } from 'zod';
import { ID_PATTERN } from '../domain/ids.js';

export type NavTarget =
  | { view: 'pools'; page: number }
  | { view: 'pool'; poolId: string; page: number; includeInactive: boolean }
  | { view: 'list'; page: number; includeInactive: boolean }
  | { view: 'expiring'; days: number; page: number }
  | { view: 'students'; page: number }
  | { view: 'courses'; page: number }
  | { view: 'show'; licenseId: string };

export type NavView = NavTarget['view'];
export type NavTargetOf<V extends NavView> = Extract<NavTarget, { view: V }>;

/** The highest page a command or a button may ask for. */
export const MAX_PAGE = 10_000;
/** `/licenses expiring [days]`: 1 to 365 days ahead. */
export const MAX_EXPIRING_DAYS = 365;

const id = z.string().regex(ID_PATTERN);
const page = z.number().int().min(1).max(MAX_PAGE);
const flag = z.union([z.literal(0), z.literal(1)]);

/** The wire format: exactly what buttons already in Slack carry (keys v, n, p, i, l; d is new). */
const wireSchema = z.discriminatedUnion('v', [
  z.object({ v: z.literal('pools'), n: page }),
  z.object({ v: z.literal('pool'), p: id, n: page, i: flag }),
  z.object({ v: z.literal('list'), n: page, i: flag }),
  z.object({ v: z.literal('expiring'), d: z.number().int().min(1).max(MAX_EXPIRING_DAYS), n: page }),
  z.object({ v: z.literal('students'), n: page }),
  z.object({ v: z.literal('courses'), n: page }),
  z.object({ v: z.literal('show'), l: id }),
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
  }
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
  const decoded = navCodec.safeDecode(json as Wire);
  return decoded.success ? decoded.data : undefined;
}

/** Ten rows a page everywhere: readable, and far below 50 blocks per message. */
export const PAGE_SIZE = 10;
