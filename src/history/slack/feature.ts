/**
 * The history as the composition root sees it (kernel/slack/feature.ts): its Export button, and with
 * AUDIT_RETENTION_DAYS the audit trail's upkeep: entries older than that deleted at start, then daily.
 */
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../kernel/blocks/ids.js';
import type { Records } from '../../kernel/db/open.js';
import type { Logger } from '../../kernel/licensing/types.js';
import type { JobRunner } from '../../kernel/services/jobs/runner.js';
import type { Feature } from '../../kernel/slack/feature.js';
import { type AuditRetention, startAuditRetention } from '../services/audit-retention.js';
import { createHistoryExportHandler } from './history-command.js';

export function historyFeature(opts: {
  records: Records | undefined;
  retentionDays: number | undefined;
  jobs: JobRunner;
  logger: Logger;
}): Feature {
  const { records, retentionDays: days } = opts;
  const listeners: Feature = {
    name: 'history',
    register(app, surface) {
      app.action<BlockAction<ButtonAction>>(ActionId.historyExport, createHistoryExportHandler(surface));
    },
  };
  if (!records || days === undefined) return listeners;
  let retention: AuditRetention | undefined;
  return {
    ...listeners,
    async start(mode) {
      if (mode !== 'all') return;
      retention = startAuditRetention({ jobs: opts.jobs, records, days, logger: opts.logger });
      await retention.run();
    },
    async stop() {
      retention?.stop();
    },
  };
}
