/**
 * What a feature gives the composition root (src/app/compose.ts), the same shape for every feature:
 * what it registers in Bolt, the notices it words, the writes it settles after a kill, the jobs it runs
 * and how it stops. The root registers, starts and stops every feature the same way, in the order it
 * built them; what a feature leaves out, it does not have. Each feature's builder of this shape is on
 * its public face (`src/<feature>/index.ts`).
 */
import type { App } from '@slack/bolt';
import type { Intent } from '../services/writes/intents.js';
import type { NoticeRenderer } from './notices.js';
import type { Surface } from './state.js';

/** 'all': every job runs on the job runner (production). 'on demand' (tests): jobs run when a test ticks them. */
export type JobMode = 'all' | 'on demand';

export interface Feature {
  /** Its folder's name, in logs. */
  readonly name: string;
  /** Its Bolt listeners, registered once the whole app is built (commands go through the /licenses router). */
  register?(app: App, surface: Surface): void;
  /** The outbox notice kinds it words, each with how it is sent. */
  readonly notices?: Readonly<Record<string, NoticeRenderer>>;
  /** The kinds of licensing write it records before sending, each with how it is settled by reading back. */
  readonly writes?: Readonly<Record<string, (intent: Intent) => Promise<void>>>;
  /** Puts its periodic work on the job runner (with 'on demand', only makes it ready). */
  start?(mode: JobMode): void | Promise<void>;
  /** Stops its work, before the licensing client closes; what is mid-step may take up to `withinMs` to end. */
  stop?(withinMs?: number): Promise<void>;
}

/** The same renderer for each of a feature's notice kinds. */
export function noticeRenderers(kinds: readonly string[], render: NoticeRenderer): Record<string, NoticeRenderer> {
  return Object.fromEntries(kinds.map((kind) => [kind, render]));
}
