/**
 * A learner's ask for more time: they must hold the license (their Slack e-mail is its student's,
 * read fresh), its end date must be changeable (a transferable pool, active), the day later than its
 * end and within the pool, a reason given; one open request per license and the course requests'
 * daily limit per person. Stored with its messages in one transaction, then audited.
 */
import { randomBytes } from 'node:crypto';
import { getLicenseDetails } from '../../browse/index.js';
import { endDateBlocker } from '../../kernel/domain/end-date.js';
import { DAY_MS } from '../../kernel/domain/time.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import { reasonProblem } from '../../requests/index.js';
import { type AskRefusal, type ExtensionRequest, endDateProblem, isOpenExtension } from '../domain/extensions.js';
import type { ExtensionKernel } from './kernel.js';

export const newExtensionId = () => `x${randomBytes(6).toString('hex')}`;

export interface NewAsk {
  requester: string;
  requesterEmail: string;
  licenseId: string;
  endDate: string;
  reason: string;
  /** How it was asked when not from Slack's own surfaces, for the audit: e.g. 'via Slackbot'. */
  via?: string;
}

export type Holding = { ok: true; license: License; pool: Pool } | { ok: false; refusal: AskRefusal };

export type AskOutcome = { ok: true; request: ExtensionRequest } | { ok: false; refusal: AskRefusal };

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Does the person with this Slack e-mail hold the license, and may its end move? Read fresh. */
export async function holding(k: ExtensionKernel, licenseId: string, email: string): Promise<Holding> {
  let details: Awaited<ReturnType<typeof getLicenseDetails>>;
  try {
    details = await getLicenseDetails(k.opts.licensing, licenseId);
  } catch (error) {
    // A license the licensing service does not know is nobody's here: said as not theirs.
    if (isLicensingError(error) && error.kind === 'not-found') return { ok: false, refusal: { kind: 'not-yours' } };
    throw error;
  }
  const { license, pool } = details;
  if (!sameEmail(license.student.email, email)) return { ok: false, refusal: { kind: 'not-yours' } };
  const blocker = endDateBlocker(license, pool, k.opts.now());
  if (blocker || !pool) return { ok: false, refusal: { kind: 'not-changeable', why: blocker ?? 'pool-unknown' } };
  const waiting = (await k.opts.store.byLicense(licenseId)).find(isOpenExtension);
  if (waiting) return { ok: false, refusal: { kind: 'waiting', request: waiting } };
  return { ok: true, license, pool };
}

/** Why this person may not ask again today (the course requests' REQUEST_MAX_PER_DAY), if so. */
async function dailyLimit(k: ExtensionKernel, requester: string): Promise<string | undefined> {
  const since = k.opts.now().getTime() - DAY_MS;
  const today = (await k.opts.store.byRequester(requester)).filter((r) => Date.parse(r.createdAt) > since);
  if (today.length < k.opts.maxPerDay) return undefined;
  return `You asked for more time ${today.length} times in the last 24 hours, the most one person may (${k.opts.maxPerDay}). Please try again tomorrow.`;
}

export async function ask(k: ExtensionKernel, input: NewAsk): Promise<AskOutcome> {
  const reason = input.reason.trim();
  if (!reason) return { ok: false, refusal: { kind: 'reason', problem: 'Please say why you need more time.' } };
  const tooLong = reasonProblem(reason);
  if (tooLong) return { ok: false, refusal: { kind: 'reason', problem: tooLong } };
  const held = await holding(k, input.licenseId, input.requesterEmail);
  if (!held.ok) return held;
  const { license, pool } = held;
  const problem = endDateProblem(input.endDate, k.opts.now(), license.end, pool.end);
  if (problem) return { ok: false, refusal: { kind: 'date', problem } };
  const limited = await dailyLimit(k, input.requester);
  if (limited) return { ok: false, refusal: { kind: 'limited', problem: limited } };
  const request: ExtensionRequest = {
    id: newExtensionId(),
    requester: input.requester,
    requesterEmail: input.requesterEmail,
    licenseId: license.id,
    poolId: pool.id,
    courseTitle: pool.course.title,
    poolEnd: pool.end,
    currentEnd: license.end,
    endDate: input.endDate,
    reason,
    createdAt: k.stamp(),
    status: 'pending',
    cards: [],
  };
  // One open request per license: looked at again in the transaction that stores this one.
  const stored = await k.txn(async (trx, s) => {
    await s.lockLicense(license.id);
    const waiting = (await s.byLicense(license.id)).find(isOpenExtension);
    if (waiting) return waiting;
    await s.insert(request);
    await k.opts.outbox.enqueue(
      trx,
      { kind: 'extension-received', extensionId: request.id },
      `extension:${request.id}:received`,
    );
    return undefined;
  });
  if (stored) return { ok: false, refusal: { kind: 'waiting', request: stored } };
  const via = input.via ? `; ${input.via}` : '';
  await k.audit(input.requester, 'requested', 'done', request, `more time asked: until ${input.endDate}${via}`);
  return { ok: true, request };
}
