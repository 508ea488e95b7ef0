/**
 * What every Slackbot tool shares (docs/slackbot.md): the context it is built with, the caller read
 * from the verified request, the argument rules, and the two kinds of result: an answer (text, Block
 * Kit in `_meta.slack.blocks`, structured output) and a refusal (`isError`, one plain sentence).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { webApi } from '@slack/bolt';
import * as z from 'zod';
import { parseEmail } from '../../kernel/domain/email.js';
import { parseDay } from '../../kernel/domain/end-date.js';
import { ID_PATTERN, ID_RULE } from '../../kernel/domain/ids.js';
import { errorSentence } from '../../kernel/services/error-text.js';
import { slackBusyText } from '../../kernel/slack/present.js';
import { SlackBusyError } from '../../kernel/slack/roles.js';
import type { Surface } from '../../kernel/slack/state.js';
import type { Answer } from '../blocks/answers.js';
import type { Confirmations } from '../db/confirmations.js';
import { USER_ID } from '../domain/settings.js';
import type { ConfirmTokens } from '../services/confirm-tokens.js';
import type { ReadSources } from '../services/reads.js';
import type { CallerGate } from './caller.js';

export interface ToolContext {
  s: Surface;
  client: webApi.WebClient;
  gate: CallerGate;
  sources: ReadSources;
  tokens: ConfirmTokens;
  /** The used-token records; absent without records (changes are then refused). */
  confirmations: Confirmations | undefined;
}

export type Registrar = (server: McpServer, ctx: ToolContext) => void;

/** The caller of a tools/call: the route let it through only with a well-formed `_meta.slack.user_id`. */
export function callerOf(extra: { _meta?: Record<string, unknown> | undefined }): string {
  const slack = extra._meta?.slack as { user_id?: unknown } | undefined;
  return typeof slack?.user_id === 'string' ? slack.user_id : '';
}

export const poolIdArg = z.string().regex(ID_PATTERN, { error: `A pool id is ${ID_RULE}` });
export const licenseIdArg = z.string().regex(ID_PATTERN, { error: `A license id is ${ID_RULE}` });
export const emailArg = z
  .string()
  .max(254)
  .refine((v) => parseEmail(v) !== undefined, { error: 'Not an e-mail address, e.g. alex.kim@contoso.com' });
export const dayArg = z
  .string()
  .refine((v) => parseDay(v) !== undefined, { error: 'A day is written YYYY-MM-DD, e.g. 2027-06-30' });
export const userArg = z.string().regex(USER_ID, { error: 'A Slack user id starts with U or W, e.g. U0123ABCD' });
export const tokenArg = z
  .string()
  .max(1500)
  .optional()
  .describe("The preview's confirmToken: only with it is the change made");

/** Tools whose answer may carry Block Kit. */
export const BLOCK_KIT_META = { slack: { supportsBlockKit: true } };

export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export function answered(a: Answer, structured: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: a.text }],
    structuredContent: structured,
    ...(a.blocks && a.blocks.length > 0 ? { _meta: { slack: { blocks: a.blocks } } } : {}),
  };
}

export function refusal(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** A tool's handler with its failures said as a sentence (never an internal message). */
export function guarded<A>(
  ctx: ToolContext,
  tool: string,
  handler: (args: A, userId: string) => Promise<CallToolResult>,
): (args: A, extra: { _meta?: Record<string, unknown> | undefined }) => Promise<CallToolResult> {
  return async (args, extra) => {
    const userId = callerOf(extra);
    try {
      return await handler(args, userId);
    } catch (error) {
      if (error instanceof SlackBusyError) return refusal(slackBusyText(error.retryAfterSec));
      ctx.s.deps.logger.warn('slackbot tool failed', { tool, userId, error: String(error) });
      return refusal(errorSentence(error));
    }
  };
}
