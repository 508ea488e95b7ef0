/**
 * The Slackbot change tools' words (docs/slackbot.md): what a preview says would happen (who, which
 * seat, which pool), and the outcome of the confirmed change, worded as a click's is (the same
 * builders: kernel/blocks/outcome.ts `describeReport`, changes' revoke and end-date sentences).
 */
import {
  buildRevokeOutcomeMessage,
  endDateRefusalOutcome,
  type RevokeCheck,
  type RevokeOutcome,
  recycleRefusalOutcome,
} from '../../changes/index.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import { buildOutcomeMessage, describeReport, type Outcome, type Tone } from '../../kernel/blocks/outcome.js';
import { dayText } from '../../kernel/domain/end-date.js';
import { escapeMrkdwn } from '../../kernel/domain/mrkdwn.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import type { WriteReport } from '../../kernel/domain/writes/report.js';
import type { ExtendResult, RecycleResult } from '../domain/answers.js';
import type { Answer } from './answers.js';

export type ChangeStatus = 'done' | 'refused' | 'failed' | 'unknown';

export interface ChangeAnswer extends Answer {
  status: ChangeStatus;
}

const STATUS: Record<Tone, ChangeStatus> = {
  done: 'done',
  info: 'done',
  refused: 'refused',
  failed: 'failed',
  unknown: 'unknown',
};

function fromMessage(message: SlackMessage, status: ChangeStatus): ChangeAnswer {
  return { text: message.text, blocks: message.blocks, status };
}

const fromOutcome = (outcome: Outcome): ChangeAnswer => fromMessage(buildOutcomeMessage(outcome), STATUS[outcome.tone]);

const student = (l: License) => `${l.student.name} <${l.student.email}>`;
const course = (pool: Pool | undefined, l: License) =>
  pool ? `${pool.course.title} (pool ${pool.id})` : `pool ${l.poolId}`;

export function assignPreview(
  pool: Pool,
  ask: { email: string; name?: string | undefined; endDate?: string | undefined },
) {
  const who = ask.name ? `${ask.name} <${ask.email}>` : ask.email;
  const end = ask.endDate ? `ending ${dayText(ask.endDate)}` : `ending with the pool (${dayText(pool.end)})`;
  return `Assign one seat of ${pool.course.title} (pool ${pool.id}, ${pool.availableLicenses} free now) to ${who}, ${end}.`;
}

export function extendPreview(license: License, pool: Pool | undefined, endDate: string): string {
  return `Change the end of license ${license.id} of ${student(license)} in ${course(pool, license)} from ${dayText(license.end)} to ${dayText(endDate)}.`;
}

export function revokePreview(check: Extract<RevokeCheck, { kind: 'revokable' }>): string {
  const { license, pool } = check;
  const seat = pool?.transferable
    ? 'The pool is transferable, so the seat goes back to it.'
    : 'The pool is not transferable, so the seat does not come back.';
  return `Revoke license ${license.id} of ${student(license)} in ${course(pool, license)}: their access ends now. ${seat}`;
}

export function assignOutcome(report: WriteReport<License>, pool: Pool, email: string): ChangeAnswer {
  return fromOutcome(
    describeReport(report, {
      done: (l) =>
        `Assigned license \`${escapeMrkdwn(l.id)}\` of ${escapeMrkdwn(pool.course.title)} (pool \`${escapeMrkdwn(pool.id)}\`) to ${escapeMrkdwn(student(l))}; it ends ${dayText(l.end)}.`,
      notDone: `no license was assigned to ${escapeMrkdwn(email)}`,
      check: `\`/licenses find ${escapeMrkdwn(email)}\``,
    }),
  );
}

export function extendOutcome(outcome: ExtendResult, licenseId: string): ChangeAnswer {
  if (outcome.kind === 'unread') return fromOutcome({ tone: 'failed', headline: escapeMrkdwn(outcome.sentence) });
  if (outcome.kind === 'refused') return fromOutcome(endDateRefusalOutcome(outcome.refusal, licenseId));
  const id = escapeMrkdwn(licenseId);
  return fromOutcome(
    describeReport(outcome.report, {
      done: (l: License) => `License \`${id}\` of ${escapeMrkdwn(student(l))} now ends ${dayText(l.end)}.`,
      notDone: `the end of license \`${id}\` was not changed`,
      check: `\`/licenses show ${id}\``,
    }),
  );
}

export function revokeOutcome(outcome: RevokeOutcome): ChangeAnswer {
  const status: ChangeStatus =
    outcome.kind === 'written'
      ? STATUS[
          outcome.write.kind === 'done' ? 'done' : outcome.write.kind === 'not-done' ? 'failed' : outcome.write.kind
        ]
      : outcome.kind === 'blocked'
        ? 'refused'
        : 'failed';
  return fromMessage(buildRevokeOutcomeMessage(outcome), status);
}

export function recyclePreview(pool: Pool, ended: License, ask: { email: string; name?: string | undefined }): string {
  const who = ask.name ? `${ask.name} <${ask.email}>` : ask.email;
  return `Pool ${pool.id} (${pool.course.title}) is full: end license ${ended.id} of ${student(ended)} (its access ends now) and give the seat to ${who}.`;
}

export function recycleOutcome(r: RecycleResult, ask: { poolId: string; email: string }): ChangeAnswer {
  if (r.kind === 'unread') return fromOutcome({ tone: 'failed', headline: escapeMrkdwn(r.sentence) });
  if (r.kind === 'refused') return fromOutcome(recycleRefusalOutcome(r.refusal, ask.poolId, ask.email, r.licenseId));
  return fromOutcome(
    describeReport(r.report, {
      done: (l) =>
        `Ended license \`${escapeMrkdwn(r.ended.id)}\` of ${escapeMrkdwn(student(r.ended))} and assigned license \`${escapeMrkdwn(l.id)}\` of pool \`${escapeMrkdwn(r.pool.id)}\` to ${escapeMrkdwn(student(l))}; it ends ${dayText(l.end)}.`,
      notDone: `no seat was recycled for ${escapeMrkdwn(ask.email)}`,
      check: `\`/licenses pool ${escapeMrkdwn(ask.poolId)}\``,
    }),
  );
}
