/**
 * How a change ended, as a modal (views.update of the submitted view) or a message (replacing the one
 * whose button was clicked: it loses its buttons). Callers pass mrkdwn that is already escaped. Pure.
 * `describeReport` words any write's outcome: after an unclear answer it says what reading back
 * found, and never suggests sending the same write blind.
 */
import type { WriteReport } from '../domain/writes/report.js';
import { CallbackId, ChangeActionId } from './ids.js';
import { actions, button, context, type SlackMessage, section } from './kit.js';
import { type LimitWait, limitWaitText } from './limit-wait.js';
import { LIMITS } from './limits.js';
import { compactView, type ModalView, modal } from './modal-kit.js';
import { escapeMrkdwn, truncate } from './mrkdwn.js';

export type Tone = 'done' | 'refused' | 'failed' | 'unknown' | 'info';

const EMOJI: Record<Tone, string> = {
  done: ':white_check_mark:',
  refused: ':no_entry_sign:',
  failed: ':x:',
  unknown: ':grey_question:',
  info: ':information_source:',
};

export interface Outcome {
  tone: Tone;
  /** One sentence, mrkdwn, escaped by the caller. */
  headline: string;
  /** Further lines (facts, the next step), mrkdwn, escaped by the caller. */
  details?: string[];
}

function body(outcome: Outcome): string {
  const text = [`${EMOJI[outcome.tone]} ${outcome.headline}`, ...(outcome.details ?? [])].join('\n');
  return truncate(text, LIMITS.sectionText);
}

export interface OutcomeModalInput extends Outcome {
  title: string;
  /** Adds a "Retry assign" button; its parameters travel in `privateMetadata`. */
  retry?: boolean;
  privateMetadata?: string;
}

export function buildOutcomeModal(input: OutcomeModalInput): ModalView {
  return modal({
    callbackId: CallbackId.changeInfo,
    title: input.title,
    ...(input.privateMetadata !== undefined ? { privateMetadata: input.privateMetadata } : {}),
    blocks: compactView([
      section(body(input)),
      input.retry ? actions([button(ChangeActionId.retryAssign, 'Retry assign', 'retry', 'primary')]) : undefined,
    ]),
  });
}

/** The "working" view that replaces a submitted form while the licensing API is called. */
export function buildWorkingModal(title: string, what: string, wait?: LimitWait): ModalView {
  const why = wait
    ? `:stopwatch: ${limitWaitText(wait)}`
    : 'The licensing service allows 25 requests a minute, so this can take a moment.';
  return modal({
    callbackId: CallbackId.changeInfo,
    title,
    blocks: [
      section(`:hourglass_flowing_sand: ${what}…`),
      context(`${why} You may close this; you will still be told the result.`),
    ],
  });
}

export function buildOutcomeMessage(outcome: Outcome): SlackMessage {
  const text = body(outcome);
  return { text: truncate(text, LIMITS.fallbackText), blocks: [section(text)] };
}

export const LOST = 'The licensing service stopped answering mid-way, so I read it back:';

export interface WriteWords<T> {
  /** The sentence for success, mrkdwn. */
  done(value: T): string;
  /** What did not happen, e.g. "no license was assigned to ada@example.com" (mrkdwn). */
  notDone: string;
  /** How to check by hand, e.g. "`/licenses find ada@example.com`". */
  check: string;
}

export function describeReport<T>(report: WriteReport<T>, words: WriteWords<T>): Outcome {
  switch (report.kind) {
    case 'done':
      return report.checked
        ? { tone: 'done', headline: words.done(report.value), details: [`_${LOST} the change is there._`] }
        : { tone: 'done', headline: words.done(report.value) };
    case 'refused':
    case 'failed':
      return {
        tone: report.kind,
        headline: escapeMrkdwn(report.sentence),
        details: report.nothingChanged ? ['Nothing was changed.'] : [],
      };
    case 'not-done':
      return {
        tone: 'failed',
        headline: `${LOST} ${words.notDone}. Nothing was changed; you can try again.`,
      };
    case 'unknown':
      return {
        tone: 'unknown',
        headline: report.stopped
          ? 'License Desk is restarting and stopped waiting for the licensing service, so I could not tell whether the change was made.'
          : 'The licensing service stopped answering mid-way, and I could not read back whether the change was made.',
        details: [`Please check with ${words.check} before trying again; I did not send it twice.`],
      };
  }
}
