/**
 * The default choice of a recycle confirmation: `recycle: true` ends whatever the API's rule picks
 * *at the time of the write* (the oldest active license, licensing-api.md POST assign rule 4), not
 * the license the confirmation named. So every rule is applied to fresh reads first (the pool is
 * still full and transferable, its active licenses and the rule's pick among them, the newcomer's
 * rules), and the write is sent only when the rule still picks the named license; otherwise nothing
 * is sent and the person is told why (or which license it would end now).
 */
import type { webApi } from '@slack/bolt';
import { escapeMrkdwn } from '../../blocks/mrkdwn.js';
import type { Pool } from '../../domain/types.js';
import { checkRecycle, type RecycleCheck } from '../../services/recycle.js';
import type { AppDeps } from '../deps.js';
import { presentError } from '../present.js';
import { finishChange, runAssign } from './assign-run.js';
import type { PendingAssign } from './metadata.js';
import { studentWords } from './outcome-text.js';
import { recycleRefusalOutcome, refusalDetail } from './refusal-text.js';

interface Run {
  viewId: string;
  actor: string;
  channel: string | undefined;
  pool: Pool | undefined;
  title: string;
}

export async function recycleDefault(
  deps: AppDeps,
  client: webApi.WebClient,
  run: Run,
  meta: PendingAssign,
  params: Parameters<typeof runAssign>[2]['params'],
): Promise<void> {
  const named = meta.x;
  const base = { at: deps.now().toISOString(), actor: run.actor, action: 'recycle' as const, poolId: meta.p };
  const facts = { ...base, studentEmail: meta.e, ...(meta.n ? { studentName: meta.n } : {}) };
  let check: RecycleCheck;
  try {
    check = await checkRecycle(deps.licensing, params, { named }, deps.now());
  } catch (error) {
    const why = presentError(error, 'pool', 'admin');
    const headline = `${escapeMrkdwn(why)} Nothing was changed: I could not check which license would end.`;
    const entry = { ...facts, outcome: 'failed' as const, detail: `could not re-check the recycle: ${why}` };
    return finishChange(deps, client, run, { tone: 'failed', headline }, entry);
  }
  if (!check.ok) {
    const told = recycleRefusalOutcome(check.refusal, meta.p, meta.e, check.license?.id);
    const entry = { ...facts, outcome: 'refused' as const, detail: refusalDetail(check.refusal) };
    return finishChange(deps, client, run, told, check.license ? { ...entry, licenseId: check.license.id } : entry);
  }
  const pick = check.license;
  await runAssign(deps, client, {
    ...run,
    pool: check.pool,
    params: { ...params, recycle: true },
    action: 'recycle',
    freed: `Ended license \`${escapeMrkdwn(pick.id)}\` of ${studentWords(pick.student)} to free its seat. `,
    detail: `seat freed by ending license ${pick.id}, re-checked as the API's pick`,
  });
}
