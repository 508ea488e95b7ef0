/**
 * The Slackbot read tools (docs/slackbot.md): each read-only, with a title, a description a model can
 * choose from, a zod input schema and structured output. Each asks the caller's role and scope on
 * every call (caller.ts); a viewer sees the pools the role covers, a learner only their own licenses.
 */
import * as z from 'zod';
import { SlackbotTool } from '../../kernel/blocks/ids.js';
import { type HistorySubject, MAX_HISTORY_DAYS } from '../../kernel/domain/history.js';
import { resolveUserEmail } from '../../kernel/slack/resolve-user.js';
import {
  historyAnswer,
  holdersAnswer,
  licensesAnswer,
  poolAnswer,
  poolsAnswer,
  runOutAnswer,
  sentenceAnswer,
  waitingAnswer,
} from '../blocks/answers.js';
import {
  historyOf,
  holdersByStanding,
  licensesByEmail,
  licensesByName,
  poolDetail,
  poolsOverview,
  runOut,
  waitingPeople,
} from '../services/reads.js';
import {
  answered,
  BLOCK_KIT_META,
  emailArg,
  guarded,
  poolIdArg,
  READ_ONLY,
  type Registrar,
  refusal,
  type ToolContext,
  userArg,
} from './tool-kit.js';

const rows = z.array(z.record(z.string(), z.unknown()));

const registerPools: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.listPools,
    {
      title: 'Pools and free seats',
      description:
        'Lists the course license pools the caller may see, with free and total seats, end date and whether seats come back when revoked.',
      inputSchema: {},
      outputSchema: { pools: rows },
      annotations: READ_ONLY,
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.listPools, async (_args: Record<string, never>, userId) => {
      const who = await ctx.gate.viewer(userId);
      if (!who.ok) return refusal(who.text);
      const { pools } = await poolsOverview(ctx.sources, who.scope);
      return answered(poolsAnswer(pools), { pools });
    }),
  );
  server.registerTool(
    SlackbotTool.getPool,
    {
      title: 'One pool',
      description:
        "One pool: its seats, how its holders' progress stands (completed, not started, stalled) and when it runs out at the recent pace.",
      inputSchema: { poolId: poolIdArg.describe('The pool id, as list_pools shows it') },
      outputSchema: { pool: z.record(z.string(), z.unknown()) },
      annotations: READ_ONLY,
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.getPool, async ({ poolId }: { poolId: string }, userId) => {
      const who = await ctx.gate.viewer(userId);
      if (!who.ok) return refusal(who.text);
      const found = await poolDetail(ctx.sources, who.scope, poolId);
      if (found.kind === 'not-found') return refusal(`There is no pool ${poolId} among the pools you can see.`);
      return answered(poolAnswer(found.value), { pool: { ...found.value } });
    }),
  );
  server.registerTool(
    SlackbotTool.runOut,
    {
      title: 'When pools run out',
      description:
        'When each pool (or the one given) runs out of free seats at the pace of the last 30 days, soonest first, from the daily records of seats in use.',
      inputSchema: { poolId: poolIdArg.optional().describe('One pool; leave out for every pool') },
      outputSchema: { pools: rows },
      annotations: READ_ONLY,
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.runOut, async ({ poolId }: { poolId?: string | undefined }, userId) => {
      const who = await ctx.gate.viewer(userId);
      if (!who.ok) return refusal(who.text);
      const found = await runOut(ctx.sources, who.scope, poolId);
      if (found.kind === 'not-found') return refusal(`There is no pool ${poolId} among the pools you can see.`);
      return answered(runOutAnswer(found.value), { pools: found.value.map((f) => ({ ...f })) });
    }),
  );
};

const STANDING_TEXT = { stalled: 'stalled', 'not-started': 'not started', completed: 'finished' } as const;

const registerProgress: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.holders,
    {
      title: 'Who stalled, has not started or finished',
      description:
        "Holders of a pool, or of every pool of a course, who stalled, have not started or finished, from License Desk's daily progress records.",
      inputSchema: {
        standing: z.enum(['stalled', 'not-started', 'completed']).describe('Which holders'),
        poolId: poolIdArg.optional().describe('One pool'),
        course: z.string().min(2).max(100).optional().describe("Words of the course's title, for all its pools"),
      },
      outputSchema: { total: z.number().int(), holders: rows },
      annotations: READ_ONLY,
      _meta: BLOCK_KIT_META,
    },
    guarded(
      ctx,
      SlackbotTool.holders,
      async (
        a: { standing: keyof typeof STANDING_TEXT; poolId?: string | undefined; course?: string | undefined },
        userId,
      ) => {
        const who = await ctx.gate.viewer(userId);
        if (!who.ok) return refusal(who.text);
        const found = await holdersByStanding(ctx.sources, who.scope, a, a.standing);
        if (found.kind === 'no-records') return refusal('The progress records are not kept here, so I cannot tell.');
        if (found.kind === 'no-pool') return refusal('No pool you can see matches that pool or course.');
        const what = `${STANDING_TEXT[a.standing]}${a.poolId ? ` in pool ${a.poolId}` : a.course ? ` in "${a.course}"` : ''}`;
        return answered(holdersAnswer(what, found.total, found.holders), {
          total: found.total,
          holders: found.holders.map((h) => ({ ...h })),
        });
      },
    ),
  );
};

type PersonArgs = { email?: string | undefined; name?: string | undefined; slackUser?: string | undefined };

/** A learner (no role) may ask only about themselves: by nothing, their own Slack user or their own e-mail. */
async function ownLicenses(ctx: ToolContext, userId: string, a: PersonArgs) {
  const member = await ctx.gate.member(userId);
  if (!member.ok) return refusal(member.text);
  const own = await resolveUserEmail(ctx.client, userId);
  if ('problem' in own) return refusal('Slack shows no e-mail address for you, so I cannot find your licenses.');
  const other =
    a.name !== undefined ||
    (a.slackUser !== undefined && a.slackUser !== userId) ||
    (a.email !== undefined && a.email.trim().toLowerCase() !== own.email.toLowerCase());
  if (other)
    return refusal(
      "You can see your own licenses only: License Desk's records of others are for license admins and viewers.",
    );
  const found = await licensesByEmail(ctx.sources, { all: true }, own.email);
  if (found.kind === 'none') return refusal(found.sentence ?? 'You have no active license.');
  return answered(licensesAnswer('you', found.licenses, found.from), {
    licenses: found.licenses.map((l) => ({ ...l })),
    source: found.from,
  });
}

const registerPerson: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.personLicenses,
    {
      title: "A person's licenses",
      description:
        "A person's active course licenses, by e-mail, Slack user or name (part of it). Anyone may ask for their own (leave every argument out); others' are for license admins and viewers.",
      inputSchema: {
        email: emailArg.optional().describe("The person's e-mail"),
        slackUser: userArg.optional().describe("The person's Slack user id"),
        name: z.string().min(2).max(100).optional().describe("Part of the person's name"),
      },
      outputSchema: { licenses: rows, source: z.string() },
      annotations: READ_ONLY,
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.personLicenses, async (a: PersonArgs, userId) => {
      const who = await ctx.gate.viewer(userId);
      if (!who.ok) return ownLicenses(ctx, userId, a);
      let email = a.email;
      if (!email && !a.name) {
        const found = await resolveUserEmail(ctx.client, a.slackUser ?? userId);
        if ('problem' in found)
          return refusal('Slack shows no e-mail address for that member; try their e-mail instead.');
        email = found.email;
      }
      const label = a.name ? `"${a.name}"` : (email ?? '');
      const found = email
        ? await licensesByEmail(ctx.sources, who.scope, email)
        : await licensesByName(ctx.sources, who.scope, a.name ?? '');
      if (found.kind === 'none')
        return answered(sentenceAnswer(found.sentence ?? `No active license found for ${label}.`), {
          licenses: [],
          source: 'none',
        });
      return answered(licensesAnswer(label, found.licenses, found.from), {
        licenses: found.licenses.map((l) => ({ ...l })),
        source: found.from,
      });
    }),
  );
};

const registerWaiting: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.waiting,
    {
      title: 'Waitlist and open requests',
      description:
        'Who waits for a seat (the waitlist, in order) and which course requests wait for a decision, for every pool or one.',
      inputSchema: { poolId: poolIdArg.optional().describe('One pool; leave out for every pool') },
      outputSchema: { waitlist: rows, openRequests: rows },
      annotations: READ_ONLY,
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.waiting, async ({ poolId }: { poolId?: string | undefined }, userId) => {
      const who = await ctx.gate.viewer(userId);
      if (!who.ok) return refusal(who.text);
      const w = await waitingPeople(ctx.sources, who.scope, poolId);
      if (!w.waitlistOn && !w.requestsOn) return refusal('Course requests and the waitlist are turned off here.');
      return answered(waitingAnswer(w), {
        waitlist: w.waitlist.map((r) => ({ ...r })),
        openRequests: w.openRequests.map((r) => ({ ...r })),
      });
    }),
  );
};

type HistoryArgs = {
  email?: string | undefined;
  slackUser?: string | undefined;
  id?: string | undefined;
  days?: number | undefined;
};

const registerHistory: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.history,
    {
      title: 'History search',
      description:
        "The audit trail's newest entries about a student's e-mail, a Slack member (what they did and asked for), or a license or pool id: who assigned, extended, revoked or recycled what, and when.",
      inputSchema: {
        email: emailArg.optional().describe("A student's e-mail"),
        slackUser: userArg.optional().describe('A Slack member'),
        id: poolIdArg.optional().describe('A license or pool id'),
        days: z.number().int().min(1).max(MAX_HISTORY_DAYS).optional().describe('Only the last so many days'),
      },
      outputSchema: { entries: rows },
      annotations: READ_ONLY,
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.history, async (a: HistoryArgs, userId) => {
      const who = await ctx.gate.viewer(userId);
      if (!who.ok) return refusal(who.text);
      const given = [a.email, a.slackUser, a.id].filter((x) => x !== undefined);
      if (given.length !== 1) return refusal('Give exactly one of email, slackUser or id to search the history for.');
      const subject: HistorySubject = a.email
        ? { kind: 'email', email: a.email.trim().toLowerCase() }
        : a.slackUser
          ? { kind: 'user', userId: a.slackUser }
          : { kind: 'id', id: a.id ?? '' };
      const page = await historyOf(ctx.sources, who.scope, subject, a.days);
      if (!page) return refusal('The audit trail is not kept in records here, so there is no history to search.');
      const entries = page.items.map((i) => i.entry);
      return answered(historyAnswer(given[0] ?? '', entries), { entries: entries.map((x) => ({ ...x })) });
    }),
  );
};

export const registerReadTools: Registrar = (server, ctx) => {
  registerHistory(server, ctx);
  registerPools(server, ctx);
  registerProgress(server, ctx);
  registerPerson(server, ctx);
  registerWaiting(server, ctx);
};
