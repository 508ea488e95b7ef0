/**
 * A navigation button's value back into a NavTarget. Anyone who can see a message can click it, and a
 * forged payload can carry anything, so the value is validated; it never decides who may see what.
 */
import { z } from 'zod';
import type { NavTarget } from '../../blocks/nav.js';
import { ID_PATTERN } from '../../domain/ids.js';

const id = z.string().regex(ID_PATTERN);
const page = z.number().int().min(1).max(10_000);
const flag = z.union([z.literal(0), z.literal(1)]);

const navSchema = z.discriminatedUnion('v', [
  z.object({ v: z.literal('pools'), n: page }),
  z.object({ v: z.literal('pool'), p: id, n: page, i: flag }),
  z.object({ v: z.literal('list'), n: page, i: flag }),
  z.object({ v: z.literal('students'), n: page }),
  z.object({ v: z.literal('courses'), n: page }),
  z.object({ v: z.literal('show'), l: id }),
]);

export function decodeNav(value: string | undefined): NavTarget | undefined {
  if (value === undefined || value.length > 2000) return undefined;
  try {
    const parsed = navSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
