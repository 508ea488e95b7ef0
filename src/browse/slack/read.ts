/**
 * How every read answers: "working on it" at once, then one service read and one builder, replacing
 * it. A failure becomes one sentence (present.ts, token-alarm.ts), never a throw.
 */
import { buildErrorMessage, buildWorkingMessage } from '../../kernel/blocks/common.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import type { RunContext } from '../../kernel/slack/command-types.js';
import { limitWait } from '../../kernel/slack/limit-wait.js';
import type { Subject } from '../../kernel/slack/present.js';
import { presentErrorTo } from '../../kernel/slack/token-alarm.js';

export interface ReadAnswer {
  /** "reading pools": the working message's words. */
  working: string;
  /** What a 404 is about. */
  subject: Subject;
  /** One service read, one builder. */
  answer(): Promise<SlackMessage>;
}

export async function answerRead(ctx: RunContext, name: string, read: ReadAnswer): Promise<void> {
  await ctx.reply.send(buildWorkingMessage(read.working, limitWait(ctx.deps)));
  let message: SlackMessage;
  try {
    message = await read.answer();
  } catch (error) {
    ctx.deps.logger.warn('read failed', { question: name, error: String(error) });
    message = buildErrorMessage(await presentErrorTo(ctx.deps, ctx.client, ctx.canChange, error, read.subject));
  }
  await ctx.reply.send(message);
}
