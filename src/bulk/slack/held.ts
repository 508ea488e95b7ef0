/**
 * A bulk job a second admin approved (docs/roles-and-approvals.md): started as the confirmation
 * would have started it, from the job saved when it was held (its rows exactly as checked), its
 * progress in the requester's DM. Once only: a job already recorded under its id is not started again.
 */
import type { webApi } from '@slack/bolt';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { createBulkJobStore, isJob } from '../db/store.js';
import { createBulkProgressNotices } from './progress-notices.js';

export async function startHeldBulkJob(client: webApi.WebClient, deps: AppDeps, plan: unknown): Promise<void> {
  const desk = deps.desk;
  if (!desk || !deps.records) throw new Error('bulk assignment is not set up in this process');
  if (!isJob(plan)) throw new Error('the held bulk job is unreadable');
  if (await createBulkJobStore(deps.records).load(plan.id)) return;
  await desk.runner.start({ ...plan, state: 'running' }, createBulkProgressNotices(client, deps, plan.requester));
  deps.logger.info('bulk job started after a second admin approved it', { job: plan.id, rows: plan.rows.length });
}
