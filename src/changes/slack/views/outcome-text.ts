/**
 * A write's outcome in words for the person (escaped mrkdwn): the use case's outcome made plain
 * (services/writes/outcome.ts `reportOf`) and worded by blocks/outcome.ts.
 */
import { buildOutcomeModal, describeReport, type Outcome, type WriteWords } from '../../../kernel/blocks/outcome.js';
import type { Codec } from '../../../kernel/blocks/values.js';
import type { Subject } from '../../../kernel/services/error-text.js';
import { reportOf, type WriteOutcome } from '../../../kernel/services/writes/outcome.js';

/** A form whose private_metadata did not decode: expired, or altered on the way. */
export const EXPIRED = buildOutcomeModal({
  title: 'License Desk',
  tone: 'info',
  headline: 'This form has expired or was altered; nothing was changed. Please start again.',
});

/**
 * A submitted form's private_metadata, decoded; when it does not decode, the form is answered with
 * EXPIRED and undefined comes back: the handler stops there.
 */
export async function metadataOrExpired<T>(
  codec: Codec<T>,
  privateMetadata: string | undefined,
  ack: (response: { response_action: 'update'; view: typeof EXPIRED }) => Promise<void>,
): Promise<T | undefined> {
  const meta = codec.decode(privateMetadata);
  if (meta === undefined) await ack({ response_action: 'update', view: EXPIRED });
  return meta;
}

export function describeWrite<T>(outcome: WriteOutcome<T>, words: WriteWords<T> & { subject: Subject }): Outcome {
  return describeReport(reportOf(outcome, words.subject), words);
}
