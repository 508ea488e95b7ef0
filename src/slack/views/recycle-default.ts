/**
 * The default choice of a recycle confirmation: `recycle: true` ends whatever the API's rule picks
 * *at the time of the write* (the oldest active license, licensing-api.md POST assign rule 4), not
 * the license the confirmation named. So the pool's active licenses are read fresh first and the
 * write is sent only when the rule still picks the named license; otherwise nothing is sent and
 * the person is told which license it would end now.
 */
import type { webApi } from '@slack/bolt';
import { escapeMrkdwn } from '../../blocks/mrkdwn.js';
import { defaultRecycleCandidate } from '../../domain/recycle.js';
import type { License } from '../../domain/types.js';
import { INTERACTIVE } from '../../services/interactive.js';
import type { AppDeps } from '../deps.js';
import { presentError } from '../present.js';
import { finishChange, runAssign } from './assign-run.js';
import type { PendingAssign } from './metadata.js';
import { studentWords } from './outcome-text.js';

interface Run {
  viewId: string;
  actor: string;
  channel: string | undefined;
  pool: undefined;
  title: string;
}

/** The pool's active licenses, fresh (one request per 100), and the rule's pick among them. */
async function currentPick(deps: AppDeps, poolId: string): Promise<License | undefined> {
  const active = await deps.licensing.pools.allLicenses(
    poolId,
    { includeInactive: false },
    { ...INTERACTIVE, fresh: true },
  );
  return defaultRecycleCandidate(active, deps.now());
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
  let pick: License | undefined;
  try {
    pick = await currentPick(deps, meta.p);
  } catch (error) {
    const why = presentError(error, 'pool');
    const headline = `${escapeMrkdwn(why)} Nothing was changed: I could not check which license would end.`;
    const entry = { ...facts, outcome: 'failed' as const, detail: `could not re-check the recycle pick: ${why}` };
    return finishChange(deps, client, run, { tone: 'failed', headline }, entry);
  }
  if (!named || !pick || pick.id !== named) {
    const was = named ? `license \`${escapeMrkdwn(named)}\`` : 'the license it named';
    const now = pick
      ? `The service would now end license \`${escapeMrkdwn(pick.id)}\` of ${studentWords(pick.student)} instead.`
      : `Pool \`${escapeMrkdwn(meta.p)}\` has no active license to end any more.`;
    const headline = `Things changed since the confirmation: ${was} is no longer the one that would end. Nothing was changed.`;
    const details = [now, `Please start again (\`/licenses assign ${escapeMrkdwn(meta.p)}\`) to confirm afresh.`];
    const detail = `stale default: confirmation named ${named ?? 'none'}, the rule now picks ${pick?.id ?? 'none'}`;
    return finishChange(
      deps,
      client,
      run,
      { tone: 'refused', headline, details },
      { ...facts, outcome: 'refused', detail },
    );
  }
  await runAssign(deps, client, {
    ...run,
    params: { ...params, recycle: true },
    action: 'recycle',
    freed: `Ended license \`${escapeMrkdwn(pick.id)}\` of ${studentWords(pick.student)} to free its seat. `,
    detail: `seat freed by ending license ${pick.id}, re-checked as the API's pick`,
  });
}
