/**
 * What a feature gives the composition root (src/app/compose.ts), the same shape for every feature:
 * what it registers in Bolt, the notices it words, the writes it settles after a kill, the jobs it runs
 * and how it stops. The root registers, starts and stops every feature the same way, in the order it
 * built them; what a feature leaves out, it does not have. Each feature's builder of this shape is on
 * its public face (`src/<feature>/index.ts`).
 */
import type { App } from '@slack/bolt';
import type { NoticeSteps } from '../services/outbox.js';
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

/** What a feature composed on the records hands over: how it sends a notice, settles its write, runs and stops. */
export interface ComposedParts {
  deliver(notice: unknown, steps: NoticeSteps): Promise<unknown>;
  /** The kind of licensing write it records before sending, and how one left in flight is settled. */
  intentKind?: string;
  settle?(intent: Intent): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The shape for a feature whose listeners are always there (without records they say it is off) and
 * whose notices, write, job and stop come with its composed parts.
 */
export function featureOf(
  name: string,
  register: NonNullable<Feature['register']>,
  noticeKinds: readonly string[],
  composed: ComposedParts | undefined,
): Feature {
  if (!composed) return { name, register };
  const { intentKind, settle } = composed;
  return {
    name,
    register,
    notices: noticeRenderers(noticeKinds, async (_client, notice, steps) => {
      await composed.deliver(notice, steps);
    }),
    ...(intentKind && settle ? { writes: { [intentKind]: (intent: Intent) => settle(intent) } } : {}),
    start: (mode) => (mode === 'all' ? composed.start() : undefined),
    stop: () => composed.stop(),
  };
}
