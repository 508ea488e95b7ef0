/**
 * Settling the admin's writes left in flight by a process that is gone (docs/records.md, "Writes in
 * flight"). One handler per kind of services/writes/ledger.ts, registered with the settler: it reads
 * back from the licensing API what became of the write (never sends it again), writes the audit entry
 * with the true outcome ("settled after a restart"), closes the intent and tells the admin once,
 * through the outbox, in the same transaction as the close. A read that fails throws: the intent
 * stays open for the next round.
 */

import type { Records } from '../../db/open.js';
import type { AuditEntry } from '../../domain/audit-entry.js';
import { APP_ACTOR } from '../../domain/audit-entry.js';
import { dayOf } from '../../domain/end-date.js';
import type { License } from '../../domain/types.js';
import type { SettledWriteNotice } from '../../domain/writes/settled-notice.js';
import { isLicensingError } from '../../licensing/errors.js';
import type { LicensingClient } from '../../licensing/types.js';
import type { AuditLog } from '../audit.js';
import type { Outbox } from '../outbox.js';
import type { Intent, Intents } from './intents.js';
import type { AssignIntentBody, EndDateIntentBody, RecycleIntentBody, RevokeIntentBody, WriteKind } from './ledger.js';
import { readBackAssign } from './read-back.js';

export const SETTLED_DETAIL = 'settled after a restart: License Desk was stopped before the answer; read back';

export interface SettleDeps {
  licensing: LicensingClient;
  audit: Pick<AuditLog, 'record'>;
  records: Records;
  intents: Pick<Intents, 'close'>;
  /** `kick`, when given, is called once the notice is committed: send it now rather than at the next poll. */
  outbox: Pick<Outbox, 'enqueue'> & { kick?(): void };
  now: () => Date;
}

const BACKGROUND = { priority: 'background' } as const;

/** The license as it is now, or undefined when the licensing service no longer knows it (404). */
async function licenseNow(licensing: LicensingClient, id: string): Promise<License | undefined> {
  try {
    return await licensing.licenses.get(id, BACKGROUND);
  } catch (error) {
    if (isLicensingError(error) && error.kind === 'not-found') return undefined;
    throw error;
  }
}

const facts = (license: License) => ({
  licenseId: license.id,
  poolId: license.poolId,
  studentName: license.student.name,
  studentEmail: license.student.email,
});

export function createWriteSettlers(deps: SettleDeps): Record<WriteKind, (intent: Intent) => Promise<void>> {
  return {
    revoke: (intent) => settleRevoke(deps, intent),
    'end-date': (intent) => settleEndDate(deps, intent),
    assign: (intent) => settleAssign(deps, intent),
    recycle: (intent) => settleRecycle(deps, intent),
  };
}

/** The audit entries, then the close and the notice in one transaction: the notice exists once. */
async function settled(
  deps: SettleDeps,
  intent: Intent,
  entries: AuditEntry[],
  notice: SettledWriteNotice,
): Promise<void> {
  for (const entry of entries) await deps.audit.record(entry);
  await deps.records.db.transaction().execute(async (trx) => {
    await deps.intents.close(trx, intent.id, {
      outcome: notice.result,
      settledAfterRestart: true,
      ...(notice.assignedLicenseId ? { licenseId: notice.assignedLicenseId } : {}),
    });
    // License Desk's own writes (the automatic return of finished seats, a leaver's seat) have no admin to tell: their
    // audit entry says what became of them, and their own read-back tells the holder.
    if (notice.to !== APP_ACTOR) await deps.outbox.enqueue(trx, notice, `settled-write:${intent.id}`);
  });
  deps.outbox.kick?.();
}

/** The start of every settled audit entry: when, whose write, what it was and whether it took effect. */
const entryOf = (deps: SettleDeps, intent: Intent, action: AuditEntry['action'], done: boolean) => ({
  at: deps.now().toISOString(),
  actor: intent.owner,
  action,
  outcome: done ? ('done' as const) : ('failed' as const),
});

/** The start of every notice: to the admin who asked, which write, and what became of it. */
const noticeOf = (intent: Intent, write: SettledWriteNotice['write'], result: SettledWriteNotice['result']) => ({
  kind: 'settled-write' as const,
  to: intent.owner,
  write,
  result,
});

const detail = (what: string, extra?: string) => [extra, `${SETTLED_DETAIL}: ${what}`].filter(Boolean).join('; ');

async function settleRevoke(deps: SettleDeps, intent: Intent): Promise<void> {
  const { license, courseTitle, as } = intent.body as RevokeIntentBody;
  const now = await licenseNow(deps.licensing, license.id);
  const done = !now?.active;
  const entry: AuditEntry = {
    ...entryOf(deps, intent, as?.action ?? 'revoke', done),
    ...facts(license),
    ...(courseTitle ? { courseTitle } : {}),
    ...(as && 'completedOn' in as ? { completedOn: as.completedOn } : {}),
    detail: detail(done ? 'the license is revoked' : 'the license is still active; nothing changed'),
  };
  await settled(deps, intent, [entry], {
    ...noticeOf(intent, 'revoke', done ? 'done' : 'not-done'),
    licenseId: license.id,
    poolId: license.poolId,
    studentName: license.student.name,
    ...(as?.action === 'returned' ? { byHolder: true } : {}),
  });
}

async function settleEndDate(deps: SettleDeps, intent: Intent): Promise<void> {
  const body = intent.body as EndDateIntentBody;
  const now = await licenseNow(deps.licensing, body.licenseId);
  const done = now !== undefined && (body.past ? !now.active : dayOf(now.end) === body.endDate);
  const previousEndDate = dayOf(body.license.end);
  const entry: AuditEntry = {
    ...entryOf(deps, intent, 'extend', done),
    ...facts(body.license),
    ...(body.courseTitle ? { courseTitle: body.courseTitle } : {}),
    ...(previousEndDate ? { previousEndDate } : {}),
    endDate: body.endDate,
    detail: detail(
      done ? 'the license has the end date asked for' : 'the end date was not changed',
      body.past ? 'a day in the past: ends the license now' : undefined,
    ),
  };
  const endsNow = now ? dayOf(now.end) : undefined;
  await settled(deps, intent, [entry], {
    ...noticeOf(intent, 'end-date', done ? 'done' : 'not-done'),
    licenseId: body.licenseId,
    poolId: body.license.poolId,
    studentName: body.license.student.name,
    endDate: body.endDate,
    past: body.past,
    ...(endsNow ? { endsNow } : {}),
  });
}

async function settleAssign(deps: SettleDeps, intent: Intent): Promise<void> {
  const body = intent.body as AssignIntentBody;
  const { params } = body;
  const found = await readBackAssign(deps.licensing, params.poolId, params.email, 'background');
  const studentName = found?.student.name ?? params.name;
  const entry: AuditEntry = {
    ...entryOf(deps, intent, body.action, found !== undefined),
    poolId: params.poolId,
    ...(found ? { licenseId: found.id } : {}),
    ...(body.courseTitle ? { courseTitle: body.courseTitle } : {}),
    ...(studentName ? { studentName } : {}),
    studentEmail: params.email,
    detail: detail(
      found ? 'the student holds a license of the pool' : 'the student holds no license of the pool; nothing changed',
      body.detail,
    ),
  };
  await settled(deps, intent, [entry], {
    ...noticeOf(intent, 'assign', found ? 'done' : 'not-done'),
    poolId: params.poolId,
    newcomer: studentName ?? params.email,
    ...(found ? { assignedLicenseId: found.id } : {}),
  });
}

async function settleRecycle(deps: SettleDeps, intent: Intent): Promise<void> {
  const body = intent.body as RecycleIntentBody;
  const { revoke, params } = body;
  // Which steps took effect: the old license ended? the newcomer holds a license of the pool?
  const old = await licenseNow(deps.licensing, revoke.id);
  const revoked = !old?.active;
  const found = await readBackAssign(deps.licensing, params.poolId, params.email, 'background');
  const course = body.courseTitle ? { courseTitle: body.courseTitle } : {};
  const newcomerName = found?.student.name ?? params.name;
  const entries: AuditEntry[] = [];
  if (revoked) {
    entries.push({
      ...entryOf(deps, intent, 'revoke', true),
      ...facts(revoke),
      ...course,
      detail: detail('the license is revoked'),
    });
  }
  entries.push({
    ...entryOf(deps, intent, 'recycle', found !== undefined),
    poolId: params.poolId,
    ...(found ? { licenseId: found.id } : {}),
    ...course,
    ...(newcomerName ? { studentName: newcomerName } : {}),
    studentEmail: params.email,
    detail: detail(
      found
        ? 'the student holds a license of the pool'
        : revoked
          ? 'the seat was freed but the student holds no license of the pool'
          : 'nothing changed',
      `seat freed by revoking license ${revoke.id}`,
    ),
  });
  await settled(deps, intent, entries, {
    ...noticeOf(intent, 'recycle', found ? 'done' : revoked ? 'freed-only' : 'not-done'),
    poolId: params.poolId,
    licenseId: revoke.id,
    studentName: revoke.student.name,
    newcomer: newcomerName ?? params.email,
    ...(found ? { assignedLicenseId: found.id } : {}),
  });
}

/** Registers a handler for each kind of the admin's writes with the settler. */
export function registerWriteSettlers(
  settler: { register(kind: string, settle: (intent: Intent) => Promise<void>): void },
  deps: SettleDeps,
): void {
  for (const [kind, settle] of Object.entries(createWriteSettlers(deps))) settler.register(kind, settle);
}
