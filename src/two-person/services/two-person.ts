/**
 * The two-person rule's use cases (docs/roles-and-approvals.md, "A second pair of eyes on mass
 * changes"): hold a mass change (its plan exactly as previewed) and send a card to each other admin
 * through the outbox; approve or reject it, once, by a conditional update, never by its submitter;
 * start an approved change through its feature's own start (a starter the composition root hands
 * in); expire what waits too long; and, where nobody else can approve, send it on its admin's own
 * confirmed word. The submitter is told once of the end (outbox), and every step is audited with both
 * names. An approved change whose start never recorded it ran (the process died between the two) is
 * started again by the job: each starter is idempotent on the change's id.
 */
import { randomBytes } from 'node:crypto';
import type { Records } from '../../kernel/db/open.js';
import { APP_ACTOR, type AuditEntry } from '../../kernel/domain/audit-entry.js';
import type { Logger } from '../../kernel/licensing/types.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import type { Outbox, OutboxSender } from '../../kernel/services/outbox.js';
import { createMassChangeStore, type MassChangeStore } from '../db/store.js';
import {
  type DecisionRefusal,
  decisionRefusal,
  expiryOf,
  type MassChange,
  type MassChangeFigures,
  type MassChangeKind,
  needsSecondPerson,
  sizeOf,
  type TwoPersonNotice,
  type TwoPersonSettings,
} from '../domain/two-person.js';

/** Starts an approved change as its feature would have started it; must do nothing the second time for one id. */
export type MassChangeStarter = (change: MassChange) => Promise<void>;

export interface TwoPersonOptions {
  records: Pick<Records, 'db' | 'dialect'>;
  outbox: Outbox & Pick<OutboxSender, 'kick'>;
  audit: () => Pick<AuditLog, 'record'> | undefined;
  settings: TwoPersonSettings;
  now: () => Date;
  logger: Logger;
}

export type HoldOutcome =
  | { kind: 'pending'; change: MassChange; approvers: string[] }
  | { kind: 'confirm'; change: MassChange };

/** A decision refused: the domain's reasons, or the decider does not cover every pool of the change. */
export type TwoPersonRefusal = DecisionRefusal | 'out-of-scope' | 'not-yours';

export type DecisionOutcome =
  | { kind: 'approved' | 'sent'; change: MassChange; started: boolean }
  | { kind: 'rejected' | 'dropped'; change: MassChange }
  | { kind: 'refused'; reason: TwoPersonRefusal; change?: MassChange };

export interface TwoPerson {
  readonly settings: TwoPersonSettings;
  /** Does a change of these figures need a second admin (the rule on, and more than TWO_PERSON_MIN_ROWS)? */
  applies(figures: MassChangeFigures): boolean;
  /** Holds the change: cards to `approvers` (pending), or, with nobody, the submitter's confirmation (confirm). */
  hold(
    input: { submitter: string; figures: MassChangeFigures; poolIds: string[]; plan: unknown },
    approvers: readonly string[],
  ): Promise<HoldOutcome>;
  get(id: string): Promise<MassChange | undefined>;
  /** A second admin's decision; `inScope`: the decider covers every pool of the change. */
  decide(id: string, actor: string, choice: 'approve' | 'reject', inScope: boolean): Promise<DecisionOutcome>;
  /** The sole admin's word where nobody else can approve: send it anyway, or drop it. */
  decideAlone(id: string, actor: string, choice: 'send' | 'drop'): Promise<DecisionOutcome>;
  /** How each kind of change starts once approved (the composition root hands them in). */
  setStarter(kind: MassChangeKind, start: MassChangeStarter): void;
  /** The job's work: expire what waited too long, start again what was approved and never started. */
  tick(): Promise<{ expired: number; restarted: number }>;
}

/** How long an approved change is left to its approval's own start before the job starts it. */
const START_GRACE_MS = 60_000;

const newChangeId = () => `mc${randomBytes(8).toString('hex')}`;

/** The audit entry of a step: the submitter as `requester`, the pool and course of a one-pool change. */
function entryOf(
  change: MassChange,
  actor: string,
  action: AuditEntry['action'],
  at: Date,
  more: Partial<AuditEntry> = {},
): AuditEntry {
  const f = change.figures;
  const onePool = f.poolId;
  const title = f.kind === 'bulk' ? f.courseTitle : f.pools.length === 1 ? f.pools[0]?.courseTitle : undefined;
  const what =
    f.kind === 'bulk'
      ? `bulk assign of ${f.rows} licenses`
      : `reclaim round over ${f.holders} holders${f.poolId ? '' : ` in ${f.pools.length} pools`}`;
  return {
    at: at.toISOString(),
    actor,
    action,
    outcome: 'done',
    requester: change.submitter,
    ...(onePool ? { poolId: onePool } : {}),
    ...(title ? { courseTitle: title } : {}),
    detail: what,
    ...more,
  };
}

/** What the use cases share: the options, the store, the starters and the starts under way here. */
interface Ctx {
  opts: TwoPersonOptions;
  store: MassChangeStore;
  starters: Map<MassChangeKind, MassChangeStarter>;
  /** Changes whose start runs in this process now: the job leaves them alone. */
  starting: Set<string>;
  audit(entry: AuditEntry): Promise<void>;
}

/** The submitter told of the end, once (keyed), in the transaction of the change of state. */
async function tell(
  ctx: Ctx,
  tx: MassChangeStore,
  change: MassChange,
  outcome: 'approved' | 'rejected' | 'expired',
  by?: string,
) {
  const notice: TwoPersonNotice = {
    kind: 'two-person-told',
    to: change.submitter,
    changeId: change.id,
    figures: change.figures,
    outcome,
    ...(by ? { by } : {}),
  };
  await ctx.opts.outbox.enqueue(tx.handle, notice, `two-person:${change.id}:told`);
}

/** Runs the approved change's start once here; false when it failed (the job tries again). */
async function startChange(ctx: Ctx, change: MassChange): Promise<boolean> {
  const start = ctx.starters.get(change.figures.kind);
  if (!start || ctx.starting.has(change.id)) return false;
  ctx.starting.add(change.id);
  try {
    await start(change);
    await ctx.store.started(change.id, ctx.opts.now().toISOString());
    ctx.opts.logger.info('mass change started', { changeId: change.id, kind: change.figures.kind });
    return true;
  } catch (error) {
    ctx.opts.logger.error('mass change approved but its start failed; trying again later', {
      changeId: change.id,
      error: String(error),
    });
    return false;
  } finally {
    ctx.starting.delete(change.id);
  }
}

/** A refused decision; the submitter's own, an out-of-scope one and someone else's "send alone" are audited. */
async function refused(
  ctx: Ctx,
  change: MassChange | undefined,
  actor: string,
  reason: TwoPersonRefusal,
  choice: string,
): Promise<DecisionOutcome> {
  if (change && (reason === 'own' || reason === 'out-of-scope' || reason === 'not-yours')) {
    const action = choice === 'reject' || choice === 'drop' ? 'mass-change-rejected' : 'mass-change-approved';
    await ctx.audit(
      entryOf(change, actor, action, ctx.opts.now(), { outcome: 'refused', detail: REFUSAL_DETAIL[reason] }),
    );
  }
  return { kind: 'refused', reason, ...(change ? { change } : {}) };
}

async function hold(
  ctx: Ctx,
  input: { submitter: string; figures: MassChangeFigures; poolIds: string[]; plan: unknown },
  approvers: readonly string[],
): Promise<HoldOutcome> {
  const { opts } = ctx;
  const at = opts.now();
  const others = [...new Set(approvers)].filter((u) => u !== input.submitter);
  const change: MassChange = {
    id: newChangeId(),
    submitter: input.submitter,
    figures: input.figures,
    poolIds: input.poolIds,
    plan: input.plan,
    state: others.length > 0 ? 'pending' : 'confirm',
    createdAt: at.toISOString(),
    expiresAt: expiryOf(at, opts.settings),
  };
  await ctx.store.transaction(async (tx) => {
    await tx.insert(change);
    for (const to of others) {
      const card: TwoPersonNotice = {
        kind: 'two-person-card',
        to,
        changeId: change.id,
        submitter: change.submitter,
        figures: change.figures,
        expiresAt: change.expiresAt,
      };
      await opts.outbox.enqueue(tx.handle, card, `two-person:${change.id}:card:${to}`);
    }
  });
  opts.outbox.kick();
  if (others.length === 0) return { kind: 'confirm', change };
  await ctx.audit(entryOf(change, change.submitter, 'mass-change-held', at));
  return { kind: 'pending', change, approvers: others };
}

async function decide(
  ctx: Ctx,
  id: string,
  actor: string,
  choice: 'approve' | 'reject',
  inScope: boolean,
): Promise<DecisionOutcome> {
  const change = await ctx.store.get(id);
  const at = ctx.opts.now();
  const why = decisionRefusal(change, actor, at);
  if (why || !change) return refused(ctx, change, actor, why ?? 'unknown', choice);
  if (!inScope) return refused(ctx, change, actor, 'out-of-scope', choice);
  const to = choice === 'approve' ? 'approved' : 'rejected';
  const moved = await ctx.store.transaction(async (tx) => {
    if (!(await tx.move(id, 'pending', to, actor, at.toISOString()))) return false;
    await tell(ctx, tx, change, to, actor);
    return true;
  });
  if (!moved) return refused(ctx, change, actor, 'decided', choice);
  ctx.opts.outbox.kick();
  const decided = { ...change, state: to, decidedBy: actor, decidedAt: at.toISOString() } as const;
  await ctx.audit(entryOf(change, actor, to === 'approved' ? 'mass-change-approved' : 'mass-change-rejected', at));
  if (to === 'rejected') return { kind: 'rejected', change: decided };
  return { kind: 'approved', change: decided, started: await startChange(ctx, decided) };
}

async function decideAlone(ctx: Ctx, id: string, actor: string, choice: 'send' | 'drop'): Promise<DecisionOutcome> {
  const change = await ctx.store.get(id);
  const at = ctx.opts.now();
  if (!change) return refused(ctx, change, actor, 'unknown', choice);
  if (change.submitter !== actor) return refused(ctx, change, actor, 'not-yours', choice);
  if (change.state !== 'confirm')
    return refused(ctx, change, actor, change.state === 'expired' ? 'expired' : 'decided', choice);
  if (at.toISOString() >= change.expiresAt) return refused(ctx, change, actor, 'expired', choice);
  const to = choice === 'send' ? 'approved' : 'cancelled';
  if (!(await ctx.store.move(id, 'confirm', to, actor, at.toISOString())))
    return refused(ctx, change, actor, 'decided', choice);
  const decided = { ...change, state: to, decidedBy: actor, decidedAt: at.toISOString() } as const;
  if (to === 'cancelled') return { kind: 'dropped', change: decided };
  const entry = entryOf(change, actor, 'mass-change-alone', at);
  await ctx.audit({
    ...entry,
    detail: `${entry.detail}; nobody else could approve it, and its admin confirmed sending it alone`,
  });
  return { kind: 'sent', change: decided, started: await startChange(ctx, decided) };
}

/** The job's work: expire what waited too long, start again what was approved and never started. */
async function tick(ctx: Ctx): Promise<{ expired: number; restarted: number }> {
  const at = ctx.opts.now();
  let expired = 0;
  for (const change of await ctx.store.due(at.toISOString())) {
    const done = await ctx.store.transaction(async (tx) => {
      if (!(await tx.move(change.id, change.state, 'expired', APP_ACTOR, at.toISOString()))) return false;
      if (change.state === 'pending') await tell(ctx, tx, change, 'expired');
      return true;
    });
    if (!done) continue;
    expired++;
    await ctx.audit(entryOf(change, APP_ACTOR, 'mass-change-expired', at));
  }
  if (expired > 0) ctx.opts.outbox.kick();
  let restarted = 0;
  // Left a minute first: an approval's own start (in this process or another replica) is under way.
  const stale = new Date(at.getTime() - START_GRACE_MS).toISOString();
  for (const change of await ctx.store.approvedNotStarted(stale)) if (await startChange(ctx, change)) restarted++;
  return { expired, restarted };
}

export function createTwoPerson(opts: TwoPersonOptions): TwoPerson {
  const ctx: Ctx = {
    opts,
    store: createMassChangeStore(opts.records),
    starters: new Map(),
    starting: new Set(),
    audit: (entry) => opts.audit()?.record(entry) ?? Promise.resolve(),
  };
  return {
    settings: opts.settings,
    applies: (figures) => needsSecondPerson(opts.settings, sizeOf(figures)),
    hold: (input, approvers) => hold(ctx, input, approvers),
    get: (id) => ctx.store.get(id),
    decide: (id, actor, choice, inScope) => decide(ctx, id, actor, choice, inScope),
    decideAlone: (id, actor, choice) => decideAlone(ctx, id, actor, choice),
    setStarter(kind, start) {
      ctx.starters.set(kind, start);
    },
    tick: () => tick(ctx),
  };
}

const REFUSAL_DETAIL: Record<'own' | 'out-of-scope' | 'not-yours', string> = {
  own: 'the submitter cannot approve their own mass change',
  'out-of-scope': 'not an admin of every pool the change touches',
  'not-yours': 'only the admin who submitted it can send it alone',
};
