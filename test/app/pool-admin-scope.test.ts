/**
 * What a pool admin sees (docs/roles-and-approvals.md): through signed requests, an admin whose role
 * covers pool 2001 only sees that pool in every list, App Home and the digest; a license or pool id of
 * another pool is answered word for word as an id that does not exist, and nothing is sent to the
 * licensing API; an owner still sees everything.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ActionId,
  BulkInputId,
  ChangeActionId,
  DeskActionId,
  DeskCallbackId,
  InputId,
  RequestActionId,
} from '../../src/kernel/blocks/ids.js';
import { EVERY_POOL, poolsScope } from '../../src/kernel/domain/scope.js';
import { SlackBusyError } from '../../src/kernel/slack/roles.js';
import { type RespondedRequest, startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { bulkFormValues } from '../support/bulk.js';
import {
  openedViewId,
  openModal,
  recycleConfirmation,
  recycleState,
  settledView,
  shortcut,
  submit,
  textOf,
  writes,
} from '../support/change-flow.js';
import { parseCsv } from '../support/csv.js';
import { isFinalReply } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { openHome } from '../support/progress.js';
import { joinWaitlist, sampleRequest, selfServiceTo } from '../support/requests.js';
import { scopeOne } from '../support/scoped-roles.js';
import { until } from '../support/until.js';

const OWNER = TEST_USERS.admin;
const POOL_ADMIN = TEST_USERS.viewer;
const IN = '2001';
const OUT = '2003';
const NO_POOL = '2999';
const NO_LICENSE = '4999';

const t = appPerFile('pool-admin-', (dataDir) =>
  startTestApp({ dataDir, reclaim: {}, ...selfServiceTo(), progressPass: { share: 1 } }),
);
let inLicense = '';
let outLicense = '';
/** A student with licenses in the other pool only. */
let outEmail = '';

beforeAll(async () => {
  scopeOne(t.deps.roles, POOL_ADMIN, [IN]);
  const active = (poolId: string) => t.sandbox.inspect.licenses({ poolId }).filter((l) => l.active);
  const inEmails = new Set(
    t.sandbox.inspect.licenses({ poolId: IN, includeInactive: true }).map((l) => l.student.email),
  );
  inLicense = active(IN)[0]?.id ?? '';
  const out = active(OUT).find((l) => !inEmails.has(l.student.email));
  outLicense = out?.id ?? '';
  outEmail = out?.student.email ?? '';
  expect(inLicense).not.toBe('');
  expect(outLicense).not.toBe('');
  // Something in the other pool's history, and progress records for the digest and reclaim.
  await t.audit.record({
    at: new Date().toISOString(),
    actor: OWNER,
    action: 'extend',
    outcome: 'done',
    poolId: OUT,
    licenseId: outLicense,
    studentEmail: outEmail,
  });
  const pass = t.progressPass?.runNow();
  if (pass?.kind === 'started') await pass.done;
});

const say = async (text: string, userId: string) => {
  const r: RespondedRequest = await t.command(text, { userId });
  const post = await r.waitForResponse(isFinalReply, 15_000);
  return `${String(post.body.text ?? '')}\n${textOf(post.body.blocks)}`;
};
/** The answer with the id asked about replaced, to compare an answer about one id with one about another. */
const about = (text: string, id: string) => text.replaceAll(id, '<id>');

describe('a pool admin sees only their pools', () => {
  it.each([
    ['pools', () => IN, () => 'Optimizing DAX'],
    ['list all', () => inLicense, () => inLicense],
    ['courses', () => 'Mastering DAX', () => 'Optimizing DAX'],
    ['digest', () => 'Mastering DAX', () => 'Optimizing DAX'],
    ['reclaim', () => IN, () => OUT],
  ])('/licenses %s: their pool, nothing of another; the owner sees every pool', async (command, shown, ownerShown) => {
    const scoped = await say(command, POOL_ADMIN);
    expect(scoped).toContain(shown());
    expect(scoped).not.toContain(`\`${OUT}\``);
    expect(scoped).not.toContain(outLicense);
    expect(scoped).not.toContain('Optimizing DAX');
    expect(await say(command, OWNER)).toContain(ownerShown());
  });

  it('/licenses export: a file with the rows of their pool only', async () => {
    const before = t.slack.uploads.length;
    expect(await say('export', POOL_ADMIN)).toContain('Sent:');
    const rows = parseCsv(t.slack.uploads.slice(before)[0]?.content ?? '').slice(1);
    expect(rows.length).toBe(t.sandbox.inspect.licenses({ poolId: IN, includeInactive: true }).length);
    expect(new Set(rows.map((r) => r[3]))).toEqual(new Set([IN]));
  });

  it('the assign shortcut and `/licenses assign`: the pool menu offers their pools only', async () => {
    const menu = async (open: () => Promise<unknown>) => JSON.stringify((await openModal(t, open)).blocks);
    for (const open of [() => shortcut(t, POOL_ADMIN), () => t.command('assign', { userId: POOL_ADMIN })]) {
      const form = await menu(open);
      expect(form).toContain('Mastering DAX');
      expect(form).not.toContain('Optimizing DAX');
    }
    expect(await menu(() => shortcut(t, OWNER))).toContain('Optimizing DAX');
  });

  it('the forms’ type-ahead pool menus (assign, bulk): their pools only; the owner is offered every pool', async () => {
    const suggest = async (input: { action: string; block: string }, userId: string) => {
      const r = await t.action(
        {
          type: 'block_suggestion',
          action_id: input.action,
          block_id: input.block,
          value: '',
          container: { type: 'view', view_id: 'V0E2EVIEW1' },
          view: { id: 'V0E2EVIEW1', type: 'modal', callback_id: 'x', state: { values: {} } },
        },
        { userId },
      );
      return (JSON.parse(r.body) as { options: { value: string }[] }).options.map((o) => o.value);
    };
    for (const input of [InputId.assignPool, BulkInputId.pool]) {
      expect(await suggest(input, POOL_ADMIN)).toEqual([IN]);
      expect(await suggest(input, OWNER)).toContain(OUT);
    }
  });

  it('Bulk assign from App Home: the form offers their pools only', async () => {
    const from = t.slack.calls.length;
    await t.clickButton(DeskActionId.bulkOpen, 'open', { userId: POOL_ADMIN });
    const id = await openedViewId(t, from);
    const form = JSON.stringify((await settledView(t, id, from)).blocks);
    expect(form).toContain('Mastering DAX');
    expect(form).not.toContain('Optimizing DAX');
  });

  it('App Home: their pool cards only; the owner sees every pool', async () => {
    const scoped = allText((await openHome(t, POOL_ADMIN)).args.view);
    const owner = allText((await openHome(t, OWNER)).args.view);
    expect(scoped).toContain('Mastering DAX');
    expect(scoped).not.toContain('Optimizing DAX');
    expect(owner).toContain('Optimizing DAX');
  });
});

describe('an id outside the scope is answered as one that does not exist, and nothing is written', () => {
  const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  it.each([
    ['pool', () => [`pool ${OUT}`, OUT, `pool ${NO_POOL}`, NO_POOL]],
    ['show', () => [`show ${outLicense}`, outLicense, `show ${NO_LICENSE}`, NO_LICENSE]],
    ['revoke', () => [`revoke ${outLicense}`, outLicense, `revoke ${NO_LICENSE}`, NO_LICENSE]],
    ['export', () => [`export ${OUT}`, OUT, `export ${NO_POOL}`, NO_POOL]],
    ['history', () => [`history ${outLicense}`, outLicense, `history ${NO_LICENSE}`, NO_LICENSE]],
    ['history by e-mail', () => [`history ${outEmail}`, outEmail, 'history nobody@contoso.com', 'nobody@contoso.com']],
    ['find', () => [`find ${outEmail}`, outEmail, 'find nobody@contoso.com', 'nobody@contoso.com']],
    ['reclaim', () => [`reclaim ${OUT}`, OUT, `reclaim ${NO_POOL}`, NO_POOL]],
  ])('%s', async (_name, cases) => {
    const [outside, outsideId, missing, missingId] = cases() as [string, string, string, string];
    t.sandbox.clearRequests();
    const refused = await say(outside, POOL_ADMIN);
    const none = await say(missing, POOL_ADMIN);
    expect(about(refused, outsideId)).toBe(about(none, missingId));
    expect(refused).not.toContain('Optimizing DAX');
    expect(writes(t)).toEqual([]);
  });

  it.each([
    ['extend', () => [`extend ${outLicense} ${date}`, outLicense, `extend ${NO_LICENSE} ${date}`, NO_LICENSE]],
    ['assign', () => [`assign ${OUT} ada@contoso.com`, OUT, `assign ${NO_POOL} ada@contoso.com`, NO_POOL]],
  ])('%s (its form)', async (_name, cases) => {
    const [outside, outsideId, missing, missingId] = cases() as [string, string, string, string];
    t.sandbox.clearRequests();
    const shown = async (text: string) =>
      allText((await openModal(t, () => t.command(text, { userId: POOL_ADMIN }))).blocks);
    const refused = await shown(outside);
    expect(about(refused, outsideId)).toBe(about(await shown(missing), missingId));
    expect(refused).not.toContain('Optimizing DAX');
    expect(writes(t)).toEqual([]);
  });

  it('the owner is shown the same ids', async () => {
    expect(await say(`pool ${OUT}`, OWNER)).toContain('Optimizing DAX');
    expect(await say(`show ${outLicense}`, OWNER)).toContain('Optimizing DAX');
    expect(await say(`history ${outLicense}`, OWNER)).toContain(outLicense);
    expect(await say(`find ${outEmail}`, OWNER)).toContain('Optimizing DAX');
  });
});

describe('a button or form about another pool, clicked or submitted by the pool admin, changes nothing', () => {
  it('a click: Revoke now on a license of another pool is told as for one that does not exist', async () => {
    t.sandbox.clearRequests();
    const click = async (licenseId: string) => {
      const r = await t.clickButton(ChangeActionId.revokeConfirm, licenseId, { userId: POOL_ADMIN });
      return textOf((await r.waitForResponse(isFinalReply, 15_000)).body.blocks);
    };
    expect(about(await click(outLicense), outLicense)).toBe(about(await click(NO_LICENSE), NO_LICENSE));
    expect(writes(t)).toEqual([]);
    expect(t.sandbox.inspect.license(outLicense)?.active).toBe(true);
  });

  it('recycle: the owner’s "free a seat" confirmation for another pool, submitted by the pool admin, is refused as for a pool that does not exist', async () => {
    const { view } = await recycleConfirmation(t, 'newbie@contoso.com');
    const meta = view.private_metadata ?? '';
    const confirm = async (metadata: string) => {
      const from = t.slack.calls.length;
      await submit(t, { ...view, private_metadata: metadata }, recycleState(outLicense), POOL_ADMIN);
      const done = await t.slack.waitForCall(
        'views.update',
        (c) => t.slack.calls.indexOf(c) >= from && !allText(c.args.view).includes('Freeing a seat'),
        10_000,
      );
      return textOf((done.args.view as { blocks: unknown }).blocks);
    };
    expect(meta).toContain(`"${OUT}"`);
    const refused = await confirm(meta);
    expect(refused).toBe(await confirm(meta.replace(`"${OUT}"`, `"${NO_POOL}"`)));
    expect(refused).toMatch(/There is no (pool|license) with that id/);
    expect(writes(t)).toEqual([]);
    expect(t.sandbox.inspect.license(outLicense)?.active).toBe(true);
  });

  it('bulk: the dry run of a list for another pool is refused as for a pool that does not exist', async () => {
    t.sandbox.clearRequests();
    const dryRun = async (poolId: string) => {
      const from = t.slack.calls.length;
      const ack = await t.viewSubmission(
        {
          view: {
            callback_id: DeskCallbackId.bulkForm,
            state: { values: bulkFormValues(poolId, ['ada@contoso.com']) },
          },
        },
        { userId: POOL_ADMIN },
      );
      const body = JSON.parse(ack.body || '{}') as { response_action?: string; view?: { external_id?: string } };
      if (body.response_action !== 'push') return JSON.stringify(body);
      const update = await t.slack.waitForCall(
        'views.update',
        (c) => t.slack.calls.indexOf(c) >= from && c.args.external_id === body.view?.external_id,
        10_000,
      );
      return allText(update.args.view);
    };
    const refused = await dryRun(OUT);
    expect(about(refused, OUT)).toBe(about(await dryRun(NO_POOL), NO_POOL));
    expect(refused).not.toContain('Optimizing DAX');
    expect(writes(t)).toEqual([]);
  });

  it('history Export: the owner’s button for a license of another pool sends the pool admin a file without its entries', async () => {
    const r = await t.command(`history ${outLicense}`, { userId: OWNER });
    const page = (await r.waitForResponse(isFinalReply, 15_000)).body;
    const value = buttons(page).find((b) => b.action_id === ActionId.historyExport)?.value ?? '';
    expect(value).not.toBe('');
    const exportAs = async (userId: string) => {
      const before = t.slack.uploads.length;
      const click = await t.clickButton(ActionId.historyExport, value, { userId });
      await click.waitForResponse(isFinalReply, 15_000);
      await until('the file uploaded', () => t.slack.uploads.length > before);
      return parseCsv(t.slack.uploads.slice(before)[0]?.content ?? '').slice(1);
    };
    expect((await exportAs(OWNER)).some((row) => row.includes(outLicense))).toBe(true);
    expect(await exportAs(POOL_ADMIN)).toEqual([]);
  });
});

describe('course requests and the waitlist keep to the scope', () => {
  it('/licenses waitlist: a request waiting in another pool is not shown; the owner sees it', async () => {
    await joinWaitlist(t, 'r0000000abc03', { id: TEST_USERS.nobody, email: 'nora.quinn@contoso.com' }, OUT);
    const scoped = await say('waitlist', POOL_ADMIN);
    expect(scoped).not.toContain(OUT);
    expect(await say('waitlist', OWNER)).toContain(OUT);
    const home = allText((await openHome(t, POOL_ADMIN)).args.view);
    expect(home).not.toContain(`pool ${OUT}`);
  });

  it.each([
    ['Approve', RequestActionId.approve],
    ['Deny…', RequestActionId.deny],
    ['Add to the waitlist', RequestActionId.waitlist],
    ['Recycle', RequestActionId.recycle],
  ])(
    '%s on a request for another pool: told as for a request that does not exist; nothing changes',
    async (_name, actionId) => {
      const request = { ...sampleRequest('r0000000abc01'), poolId: OUT };
      await t.deps.requests?.store.put(request);
      t.sandbox.clearRequests();
      const click = async (id: string) => {
        const r = await t.clickButton(actionId, id, { userId: POOL_ADMIN });
        const post = await r.waitForResponse(isFinalReply, 15_000);
        return `${String(post.body.text ?? '')}\n${textOf(post.body.blocks)}`;
      };
      const refused = await click(request.id);
      expect(about(refused, request.id)).toBe(about(await click('r0000000abc02'), 'r0000000abc02'));
      expect(refused).not.toContain('Mastering DAX');
      expect((await t.deps.requests?.store.get(request.id))?.status).toBe('pending');
      expect(writes(t)).toEqual([]);
    },
  );
});

describe('the scope check itself', () => {
  it('Slack rate-limiting it asks to try again, showing nothing; a check that fails shows no pool at all', async () => {
    const roles = t.deps.roles;
    const scopeOf = roles.scopeOf;
    try {
      roles.scopeOf = async () => {
        throw new SlackBusyError(7, 'users.info');
      };
      const busy = await say('pools', POOL_ADMIN);
      expect(busy).toContain('Slack is busy right now');
      expect(busy).not.toContain('Mastering DAX');
      roles.scopeOf = async () => {
        throw new Error('the roles table did not answer');
      };
      const failed = await say('pools', POOL_ADMIN);
      expect(failed).not.toContain('Mastering DAX');
      expect(failed).not.toContain('Optimizing DAX');
    } finally {
      if (scopeOf) roles.scopeOf = scopeOf;
    }
  });
});

describe('a pool viewer asking to change their pool', () => {
  it("is told to ask that pool's admins; a pool outside their scope names the owners, as before", async () => {
    const roles = t.deps.roles;
    const { roleOf, scopeOf, whoToAskFor } = roles;
    const viewer = TEST_USERS.nobody;
    try {
      roles.roleOf = async (client, id) => (id === viewer ? 'viewer' : roleOf.call(roles, client, id));
      roles.scopeOf = async (_client, id) =>
        id === viewer ? poolsScope([IN]) : id === POOL_ADMIN ? poolsScope([IN]) : EVERY_POOL;
      roles.whoToAskFor = async (poolId) => (poolId === IN ? `<@${POOL_ADMIN}>` : roles.whoToAsk());
      const mine = await (await t.clickButton(ActionId.poolAssign, IN, { userId: viewer })).waitForResponse();
      expect(allText(mine.body)).toContain(`Only license admins can change licenses. Please ask <@${POOL_ADMIN}>`);
      const other = await (await t.clickButton(ActionId.poolAssign, OUT, { userId: viewer })).waitForResponse();
      expect(allText(other.body)).toContain('Only license admins can change licenses');
      expect(allText(other.body)).not.toContain(`<@${POOL_ADMIN}>`);
    } finally {
      roles.roleOf = roleOf;
      if (scopeOf) roles.scopeOf = scopeOf;
      if (whoToAskFor) roles.whoToAskFor = whoToAskFor;
      else delete roles.whoToAskFor;
    }
  });
});
