/** Leavers' test helpers: long-running holders of the sandbox's demo seed, and Slack's `user_change`. */
import { DAY_MS } from '../../src/kernel/domain/time.js';
import type { License } from '../../src/kernel/domain/types.js';
import type { TestApp } from './app-harness.js';

/** Active licenses that run well past the days these tests move the clock, by holder e-mail. */
export function holdersOf(t: TestApp, from: number): Map<string, License[]> {
  const by = new Map<string, License[]>();
  for (const l of t.sandbox.inspect.licenses()) {
    if (!l.active || Date.parse(l.end) <= from + 60 * DAY_MS) continue;
    by.set(l.student.email, [...(by.get(l.student.email) ?? []), l]);
  }
  return by;
}

/** A holder whose licenses all run long, with at least one in `want` and (if given) one in `also`. */
export function pickHolder(
  t: TestApp,
  from: number,
  want: string,
  also?: string,
  not: string[] = [],
  without: string[] = [],
): License[] {
  const all = t.sandbox.inspect.licenses().filter((l) => l.active);
  for (const [email, ls] of holdersOf(t, from)) {
    if (not.includes(email)) continue;
    if (all.filter((l) => l.student.email === email).length !== ls.length) continue;
    if (!ls.some((l) => l.poolId === want)) continue;
    if (also && !ls.some((l) => l.poolId === also)) continue;
    if (all.some((l) => l.student.email === email && without.includes(l.poolId))) continue;
    return ls;
  }
  throw new Error(`the demo seed has no long holder in ${want}${also ? ` and ${also}` : ''}`);
}

export const deactivate = (t: TestApp, id: string, email?: string) =>
  t.event({ type: 'user_change', user: { id, deleted: true, profile: email ? { email } : {} } });
export const reactivate = (t: TestApp, id: string, email: string) =>
  t.event({ type: 'user_change', user: { id, deleted: false, profile: { email } } });
