/** The payload parts of the request surfaces, parsed with zod: hints, never authority. */
import * as z from 'zod';
import type { RequestSource } from '../domain/requests.js';

/** A request id as newRequestId() makes it, carried in button values and the deny modal's metadata. */
export const RequestIdCodec = z.string().regex(/^r[0-9a-f]{12}$/);

export function parseRequestId(value: unknown): string | undefined {
  const parsed = RequestIdCodec.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The request form's private_metadata: which surface opened it. */
const FormMetaCodec = z.object({ s: z.enum(['command', 'home', 'shortcut']) });

export function encodeFormMeta(source: Exclude<RequestSource, 'workflow'>): string {
  return JSON.stringify({ s: source });
}

export function parseFormMeta(raw: string | undefined): Exclude<RequestSource, 'workflow'> {
  try {
    const parsed = FormMetaCodec.safeParse(JSON.parse(raw ?? ''));
    return parsed.success ? parsed.data.s : 'command';
  } catch {
    return 'command';
  }
}
