/**
 * What a pool admin sees (docs/roles-and-approvals.md): through signed requests, an admin whose role
 * covers pool 2001 only sees that pool in every list, App Home and the digest; a license or pool id of
 * another pool is answered word for word as an id that does not exist, and nothing is sent to the
 * licensing API; an owner still sees everything.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type RespondedRequest, startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { openModal, textOf, writes } from '../support/change-flow.js';
import { isFinalReply } from '../support/fake-slack.js';
import { allText } from '../support/fixtures.js';
import { openHome } from '../support/progress.js';
import { scopeOne } from '../support/scoped-roles.js';

const OWNER = TEST_USERS.admin;
const POOL_ADMIN = TEST_USERS.viewer;
const IN = '2001';
const OUT = '2003';
const NO_POOL = '2999';
const NO_LICENSE = '4999';

const t = appPerFile('pool-admin-', (dataDir) => startTestApp({ dataDir }));
let inLicense = '';
let outLicense = '';

beforeAll(() => {
  scopeOne(t.deps.roles, POOL_ADMIN, [IN]);
  const first = (poolId: string) => t.sandbox.inspect.licenses({ poolId }).find((l) => l.active)?.id ?? '';
  inLicense = first(IN);
  outLicense = first(OUT);
  expect(inLicense).not.toBe('');
  expect(outLicense).not.toBe('');
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
  ])('/licenses %s: their pool, nothing of another; the owner sees every pool', async (command, shown, ownerShown) => {
    const scoped = await say(command, POOL_ADMIN);
    expect(scoped).toContain(shown());
    expect(scoped).not.toContain(`\`${OUT}\``);
    expect(scoped).not.toContain(outLicense);
    expect(scoped).not.toContain('Optimizing DAX');
    expect(await say(command, OWNER)).toContain(ownerShown());
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
  });
});
