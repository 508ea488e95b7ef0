/**
 * What a button value or a modal's private_metadata carries, one zod codec per kind: builders encode
 * (the modal's private_metadata, a button's value), listeners decode. Readable names in code, short
 * keys on the wire (private_metadata holds at most 3000 characters, platform.md section 5); the wire
 * format is fixed, so views already open in Slack keep working across a deploy.
 *
 * Whatever comes back is a hint, never authority: anyone who sees a message can click it and a forged
 * payload can carry anything. The role is asked again on every request, and the change's rules run on
 * fresh reads of what it names before any write (docs/change-checks.md).
 */
import * as z from 'zod';
import { ID_PATTERN } from '../domain/ids.js';

const id = z.string().regex(ID_PATTERN);
const channel = z.string().regex(/^[CGD][A-Z0-9]{2,30}$/);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** A course request's id (services/requests newRequestId). */
const requestId = z.string().regex(/^r[0-9a-f]{12}$/);

/** private_metadata Slack gives back: at most 3000 characters. */
const MAX_WIRE = 3000;

export interface Codec<T> {
  encode(value: T): string;
  /** undefined for anything expired, altered or malformed. */
  decode(raw: string | undefined): T | undefined;
}

/** A JSON codec: `wire` checks the short-keyed object, `toWire`/`fromWire` rename. */
function jsonCodec<W, T>(
  wire: z.ZodType<W>,
  toWire: (value: T) => Record<string, unknown>,
  fromWire: (w: W) => T,
): Codec<T> {
  return {
    encode: (value) => JSON.stringify(toWire(value)),
    decode(raw) {
      if (!raw || raw.length > MAX_WIRE) return undefined;
      try {
        const parsed = wire.safeParse(JSON.parse(raw));
        return parsed.success ? fromWire(parsed.data) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** Keeps only the keys whose value is defined (the wire never holds `"n": undefined` or null). */
function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A button whose value is a bare pool or license id (Assign…, Change end date…, Revoke…, Revoke now). */
export const idValue: Codec<string> = {
  encode: (value) => value,
  decode: (raw) => (raw !== undefined && id.safeParse(raw).success ? raw : undefined),
};

/** A channel id fit for the one-sentence reply, or nothing. */
export function channelOf(value: string | undefined): string | undefined {
  return value !== undefined && channel.safeParse(value).success ? value : undefined;
}

/**
 * The assign form: where the one-sentence reply goes, and, opened by "Free a seat…" on a course
 * request's card, the request it frees a seat for. Wire: `{ c?, q? }`.
 */
export interface AssignFormMeta {
  channelId?: string | undefined;
  requestId?: string | undefined;
}
export const assignFormMeta: Codec<AssignFormMeta> = jsonCodec(
  z.object({ c: channel.optional(), q: requestId.optional() }),
  (m) => defined({ c: m.channelId, q: m.requestId }),
  (w) => ({ channelId: w.c, requestId: w.q }),
);

/**
 * The assign to run after a recycle confirmation (with `defaultLicenseId`) or again after a recycle
 * whose assign failed (with `revokedLicenseId`), for a course request's seat with `requestId`.
 * Wire: `{ c?, p, e, n?, d?, x?, r?, q? }`.
 */
export interface PendingAssignMeta {
  channelId?: string | undefined;
  poolId: string;
  email: string;
  name?: string | undefined;
  endDate?: string | undefined;
  /** Recycle only: the license the API's own rule would end (the default choice). */
  defaultLicenseId?: string | undefined;
  /** Retry only: the license that was already revoked to free the seat. */
  revokedLicenseId?: string | undefined;
  /** The course request the seat is freed for ("Free a seat…" on its card). */
  requestId?: string | undefined;
}
export const pendingAssignMeta: Codec<PendingAssignMeta> = jsonCodec(
  z.object({
    c: channel.optional(),
    p: id,
    e: z.string().min(3).max(254),
    n: z.string().max(200).optional(),
    d: day.optional(),
    x: id.optional(),
    r: id.optional(),
    q: requestId.optional(),
  }),
  (m) =>
    defined({
      c: m.channelId,
      p: m.poolId,
      e: m.email,
      n: m.name,
      d: m.endDate,
      x: m.defaultLicenseId,
      r: m.revokedLicenseId,
      q: m.requestId,
    }),
  (w) => ({
    channelId: w.c,
    poolId: w.p,
    email: w.e,
    name: w.n,
    endDate: w.d,
    defaultLicenseId: w.x,
    revokedLicenseId: w.r,
    requestId: w.q,
  }),
);

/** The change-end-date form. Wire: `{ c?, l }`. */
export interface EndDateFormMeta {
  channelId?: string | undefined;
  licenseId: string;
}
export const endDateFormMeta: Codec<EndDateFormMeta> = jsonCodec(
  z.object({ c: channel.optional(), l: id }),
  (m) => defined({ c: m.channelId, l: m.licenseId }),
  (w) => ({ channelId: w.c, licenseId: w.l }),
);

/** The past-date confirmation of a new end date. Wire: `{ c?, l, d }`. */
export interface PastEndDateMeta {
  channelId?: string | undefined;
  licenseId: string;
  endDate: string;
}
export const pastEndDateMeta: Codec<PastEndDateMeta> = jsonCodec(
  z.object({ c: channel.optional(), l: id, d: day }),
  (m) => defined({ c: m.channelId, l: m.licenseId, d: m.endDate }),
  (w) => ({ channelId: w.c, licenseId: w.l, endDate: w.d }),
);
