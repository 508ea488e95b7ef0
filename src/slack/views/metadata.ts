/**
 * private_metadata of the change modals (≤ 3000 characters, platform.md section 5): which thing the
 * form is about and the channel for the one-sentence reply. Parsed with zod on the way back in; it
 * never says who may do what (the role is asked again on every submission), and what it names is a
 * hint: the change's rules are applied to fresh reads of that pool or license before any write
 * (services/recycle.ts, services/change-end-date.ts; docs/change-checks.md).
 */
import { z } from 'zod';
import { ID_PATTERN } from '../../domain/ids.js';

const id = z.string().regex(ID_PATTERN);
const channel = z.string().regex(/^[CGD][A-Z0-9]{2,30}$/);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const assignMetaSchema = z.object({ c: channel.optional() });
/** The assign to run after a confirmation (recycle) or again (retry). */
export const pendingAssignSchema = z.object({
  c: channel.optional(),
  p: id,
  e: z.string().min(3).max(254),
  n: z.string().max(200).optional(),
  d: day.optional(),
  /** Recycle only: the license the API's own rule would end (the default choice). */
  x: id.optional(),
  /** Retry only: the license that was already revoked to free the seat. */
  r: id.optional(),
});
export const extendMetaSchema = z.object({ c: channel.optional(), l: id });
export const pastConfirmMetaSchema = z.object({ c: channel.optional(), l: id, d: day });

export type AssignMeta = z.infer<typeof assignMetaSchema>;
export type PendingAssign = z.infer<typeof pendingAssignSchema>;
export type ExtendMeta = z.infer<typeof extendMetaSchema>;
export type PastConfirmMeta = z.infer<typeof pastConfirmMetaSchema>;

export function encodeMeta(value: object): string {
  return JSON.stringify(value);
}

export function decodeMeta<T>(schema: z.ZodType<T>, raw: string | undefined): T | undefined {
  if (!raw || raw.length > 3000) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A channel id fit for the reply, or nothing. */
export function channelOf(value: string | undefined): string | undefined {
  return value !== undefined && channel.safeParse(value).success ? value : undefined;
}
