/**
 * The Slackbot change tools (docs/slackbot.md), confirmed as in Slack: the first call answers a preview
 * (who, which seat, which pool) with a Confirm button and a token, and sends nothing; only a second
 * call with that token, by the same person, within CONFIRM_MINUTES, makes the change, through the same
 * use case, intent, audit entry ("via Slackbot") and notices as a click. The role and scope are asked
 * again on the confirm: a role removed in between refuses it, and nothing is written.
 */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { SlackbotTool } from '../../kernel/blocks/ids.js';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { EVERY_POOL, type Scope } from '../../kernel/domain/scope.js';
import { withScope } from '../../kernel/services/request-scope.js';
import { changeContext } from '../../kernel/slack/state.js';
import { previewAnswer } from '../blocks/answers.js';
import {
  assignOutcome,
  assignPreview,
  type ChangeAnswer,
  extendOutcome,
  extendPreview,
  recycleOutcome,
  recyclePreview,
  revokeOutcome,
  revokePreview,
} from '../blocks/changes.js';
import {
  type AssignAsk,
  checkAssign,
  checkExtend,
  confirmAssign,
  confirmExtend,
  confirmRecycle,
  confirmRevoke,
  previewRecycle,
  previewRevoke,
  viaSlackbot,
} from '../services/changes.js';
import { CONFIRM_MINUTES, type TokenCheck } from '../services/confirm-tokens.js';
import {
  BLOCK_KIT_META,
  dayArg,
  emailArg,
  guarded,
  licenseIdArg,
  poolIdArg,
  type Registrar,
  refusal,
  type ToolContext,
  tokenArg,
} from './tool-kit.js';

const TOKEN_REFUSAL: Record<Extract<TokenCheck, { ok: false }>['why'] | 'used', string> = {
  forged:
    'That confirmation token is not one License Desk gave for a preview. Nothing was changed; ask for the preview again.',
  expired: `That preview has expired (a preview can be confirmed for ${CONFIRM_MINUTES} minutes). Nothing was changed; ask for the preview again.`,
  'other-person':
    'That preview was shown to someone else: only the person who asked for it can confirm it. Nothing was changed.',
  'other-change':
    'That confirmation is for another change than these arguments. Nothing was changed; ask for the preview again.',
  used: 'That preview was confirmed already, and its change was made once. Nothing more was changed.',
};

/** What every two-step tool answers: the preview with its token, or how the change went. */
export const changeOutput = {
  status: z.enum(['preview', 'done', 'refused', 'failed', 'unknown']),
  what: z.string(),
  confirmToken: z.string().optional(),
  expiresAt: z.string().optional(),
};

/** The pools a checked caller's role covers; a member's own tools (request, more time) check their own rules. */
const scopeIn = (who: { ok: true; scope?: Scope }): Scope => who.scope ?? EVERY_POOL;

interface TwoSteps {
  tool: string;
  userId: string;
  /** May the caller make this change (in this pool, when known)? Asked at the preview and again at the confirm. */
  who(poolId?: string): Promise<{ ok: true } | { ok: false; text: string }>;
  args: Record<string, unknown>;
  token: string | undefined;
  /** Reads fresh and applies the rules: what would happen and in which pool, or why it cannot. */
  preview(): Promise<{ what: string; poolId: string; subject?: string } | { refused: string }>;
  /** Makes the change; `subject` is what the preview named beside the arguments. */
  commit(subject: string | undefined): Promise<ChangeAnswer>;
}

export async function twoSteps(ctx: ToolContext, t: TwoSteps): Promise<CallToolResult> {
  if (!ctx.confirmations) {
    return refusal("Changes through Slackbot need License Desk's records (a database), which are not kept here.");
  }
  const now = ctx.s.deps.now();
  if (t.token === undefined) {
    const who = await t.who();
    if (!who.ok) return refusal(who.text);
    // In the caller's scope, as a click runs: a license or pool outside it reads as one that does not exist.
    const seen = await withScope(scopeIn(who), () => t.preview());
    if ('refused' in seen) return refusal(seen.refused);
    const inPool = await t.who(seen.poolId);
    if (!inPool.ok) return refusal(inPool.text);
    const { token, facts } = ctx.tokens.issue(t.tool, t.args, t.userId, now, seen.poolId, seen.subject);
    const expiresAt = new Date(facts.expiresAt).toISOString();
    const a = previewAnswer(t.tool, seen.what, { ...t.args, confirmToken: token }, CONFIRM_MINUTES);
    return {
      content: [{ type: 'text', text: `${a.text}\nconfirmToken: ${token}` }],
      structuredContent: { status: 'preview', what: seen.what, confirmToken: token, expiresAt },
      ...(a.blocks ? { _meta: { slack: { blocks: a.blocks } } } : {}),
    };
  }
  const checked = ctx.tokens.check(t.token, t.tool, t.args, t.userId, now);
  if (!checked.ok) return refusal(TOKEN_REFUSAL[checked.why]);
  const poolId = checked.facts.poolId;
  const who = await t.who(poolId);
  if (!who.ok) return refusal(who.text);
  if (!(await ctx.confirmations.use(checked.facts, now))) return refusal(TOKEN_REFUSAL.used);
  const done = await withScope(scopeIn(who), () => t.commit(checked.facts.subject));
  const result: CallToolResult = {
    content: [{ type: 'text', text: done.text }],
    structuredContent: { status: done.status, what: done.text },
    ...(done.blocks ? { _meta: { slack: { blocks: done.blocks } } } : {}),
  };
  return done.status === 'done' ? result : { ...result, isError: true };
}

/** The use cases' context of a click, its audit entries marked as made through Slackbot. */
const slackbotChange = (ctx: ToolContext) => {
  const base = changeContext(ctx.s);
  return { ...base, audit: viaSlackbot(base.audit) };
};

export const WRITE = { readOnlyHint: false, openWorldHint: false };
/** A tool that asks for something (a course, more time) and changes no license itself. */
export const ASKING = { ...WRITE, destructiveHint: false, idempotentHint: false };

/** A license admin, in the pool when it is known (a refused role is audited as a click's). */
const asAdmin = (ctx: ToolContext, userId: string, action: AuditEntry['action']) => (poolId?: string) =>
  ctx.gate.admin(userId, action, poolId ? { poolId } : {});

type AssignArgs = AssignAsk & { confirmToken?: string | undefined };

const registerAssign: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.assign,
    {
      title: 'Assign a license',
      description:
        'License admins: give a person a seat in a pool. The first call only previews the change and returns a confirmToken; call again with the same arguments and that confirmToken to make it.',
      inputSchema: {
        poolId: poolIdArg.describe('The pool to take the seat from'),
        email: emailArg.describe("The student's e-mail"),
        name: z.string().min(1).max(200).optional().describe("The student's name, for a new student"),
        endDate: dayArg.optional().describe('The license end (YYYY-MM-DD); default the pool end'),
        confirmToken: tokenArg,
      },
      outputSchema: changeOutput,
      annotations: { ...WRITE, destructiveHint: false, idempotentHint: false },
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.assign, async ({ confirmToken, ...ask }: AssignArgs, userId) =>
      twoSteps(ctx, {
        tool: SlackbotTool.assign,
        who: asAdmin(ctx, userId, 'assign'),
        userId,
        args: { ...ask },
        token: confirmToken,
        preview: async () => {
          const check = await checkAssign(ctx.s.deps.licensing, ask, ctx.s.deps.now());
          if (check.kind === 'refused') return { refused: check.sentence };
          return { what: assignPreview(check.pool, ask), poolId: check.pool.id };
        },
        commit: async () => {
          const done = await confirmAssign(slackbotChange(ctx), userId, ask);
          if (done.kind === 'refused') return { text: done.sentence, status: 'refused' };
          return assignOutcome(done.report, done.pool, ask.email);
        },
      }),
    ),
  );
};

type ExtendArgs = { licenseId: string; endDate: string; confirmToken?: string | undefined };

const registerExtend: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.extend,
    {
      title: "Change a license's end date",
      description:
        "License admins: move a license's end date (extend it, or shorten it). The first call only previews and returns a confirmToken; call again with the same arguments and that confirmToken to make it.",
      inputSchema: {
        licenseId: licenseIdArg.describe('The license'),
        endDate: dayArg.describe('The new end (YYYY-MM-DD)'),
        confirmToken: tokenArg,
      },
      outputSchema: changeOutput,
      annotations: { ...WRITE, destructiveHint: false, idempotentHint: true },
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.extend, async ({ licenseId, endDate, confirmToken }: ExtendArgs, userId) =>
      twoSteps(ctx, {
        tool: SlackbotTool.extend,
        who: asAdmin(ctx, userId, 'extend'),
        userId,
        args: { licenseId, endDate },
        token: confirmToken,
        preview: async () => {
          const check = await checkExtend(ctx.s.deps.licensing, licenseId, endDate, ctx.s.deps.now());
          if (check.kind === 'unread') return { refused: check.sentence };
          if (check.kind === 'refused') return { refused: extendOutcome(check, licenseId).text };
          return { what: extendPreview(check.license, check.pool, endDate), poolId: check.license.poolId };
        },
        commit: async () =>
          extendOutcome(await confirmExtend(slackbotChange(ctx), userId, licenseId, endDate), licenseId),
      }),
    ),
  );
};

type RevokeArgs = { licenseId: string; confirmToken?: string | undefined };

const registerRevoke: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.revoke,
    {
      title: 'Revoke a license',
      description:
        'License admins: end a license now (the holder loses access; a transferable pool gets the seat back). The first call only previews and returns a confirmToken; call again with the same licenseId and that confirmToken to make it.',
      inputSchema: { licenseId: licenseIdArg.describe('The license'), confirmToken: tokenArg },
      outputSchema: changeOutput,
      annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.revoke, async ({ licenseId, confirmToken }: RevokeArgs, userId) =>
      twoSteps(ctx, {
        tool: SlackbotTool.revoke,
        who: asAdmin(ctx, userId, 'revoke'),
        userId,
        args: { licenseId },
        token: confirmToken,
        preview: async () => {
          const check = await previewRevoke(ctx.s.deps.licensing, licenseId, ctx.s.deps.now());
          if (check.kind !== 'revokable') return { refused: revokeOutcome(check).text };
          return { what: revokePreview(check), poolId: check.license.poolId };
        },
        commit: async () => revokeOutcome(await confirmRevoke(slackbotChange(ctx), userId, licenseId)),
      }),
    ),
  );
};

const registerRecycle: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.recycle,
    {
      title: 'Recycle a seat',
      description:
        'License admins: in a full transferable pool, end the license the licensing service picks (the preview names it) and give its seat to a new person. The first call only previews and returns a confirmToken; call again with the same arguments and that confirmToken to make it.',
      inputSchema: {
        poolId: poolIdArg.describe('The full pool'),
        email: emailArg.describe("The new student's e-mail"),
        name: z.string().min(1).max(200).optional().describe("The new student's name"),
        endDate: dayArg.optional().describe('The new license end (YYYY-MM-DD); default the pool end'),
        confirmToken: tokenArg,
      },
      outputSchema: changeOutput,
      annotations: { ...WRITE, destructiveHint: true, idempotentHint: false },
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.recycle, async ({ confirmToken, ...ask }: AssignArgs, userId) =>
      twoSteps(ctx, {
        tool: SlackbotTool.recycle,
        who: asAdmin(ctx, userId, 'recycle'),
        userId,
        args: { ...ask },
        token: confirmToken,
        preview: async () => {
          const seen = await previewRecycle(ctx.s.deps.licensing, ask, ctx.s.deps.now());
          if (seen.kind !== 'ready') return { refused: recycleOutcome(seen, ask).text };
          return { what: recyclePreview(seen.pool, seen.license, ask), poolId: seen.pool.id, subject: seen.license.id };
        },
        commit: async (named) => recycleOutcome(await confirmRecycle(slackbotChange(ctx), userId, ask, named), ask),
      }),
    ),
  );
};

export const registerChangeTools: Registrar = (server, ctx) => {
  registerRecycle(server, ctx);
  registerAssign(server, ctx);
  registerExtend(server, ctx);
  registerRevoke(server, ctx);
};
