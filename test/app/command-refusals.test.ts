/**
 * Typed commands the gate refuses are audited like refused clicks: a viewer typing a change, someone
 * without a role typing a change or a read of student data; the entry says who and what (the
 * subcommand, and the pool or license named), the audit channel posts it. Help and the reads of
 * pools, courses and the account are not recorded. Signed slash commands in.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/kernel/domain/audit-entry.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { isFinalReply } from '../support/fake-slack.js';
import { allText } from '../support/fixtures.js';

const AUDIT = 'C0AUDIT0019';
const t = appPerFile('command-refusals-', () => startTestApp({ auditChannel: AUDIT }));

/** Types `/licenses <text>` as `userId`: what they read, and the audit entries recorded meanwhile. */
async function typed(text: string, userId: string): Promise<{ reply: string; entries: AuditEntry[] }> {
  const before = (await t.audit.recent(100)) ?? [];
  const reply = await (await t.command(text, { userId })).waitForResponse(isFinalReply);
  await t.settled();
  const after = (await t.audit.recent(100)) ?? [];
  return { reply: allText(reply.body.blocks), entries: after.slice(0, after.length - before.length) };
}

describe('typed commands refused by the gate', () => {
  it('a viewer types a change (bulk): refused, and the audit trail and channel show who tried what', async () => {
    const from = t.slack.calls.length;
    const { reply, entries } = await typed('bulk', TEST_USERS.viewer);
    expect(reply).toContain('Only license admins can change licenses');
    expect(entries).toEqual([
      expect.objectContaining({
        actor: TEST_USERS.viewer,
        action: 'command',
        outcome: 'refused',
        command: 'bulk',
        detail: 'not a license admin (command)',
      }),
    ]);
    const post = await t.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === AUDIT && t.slack.calls.indexOf(c) >= from,
    );
    expect(String(post.args.text)).toContain(`<@${TEST_USERS.viewer}> tried to use \`/licenses bulk\``);
  });

  it('a viewer types reclaim for a pool: the refused attempt is recorded', async () => {
    const { entries } = await typed('reclaim 2003', TEST_USERS.viewer);
    expect(entries).toEqual([
      expect.objectContaining({ actor: TEST_USERS.viewer, action: 'command', outcome: 'refused', command: 'reclaim' }),
    ]);
  });

  it('someone without a role types a change: recorded as that change, with the license named', async () => {
    const { reply, entries } = await typed('revoke 4001', TEST_USERS.nobody);
    expect(reply).toContain("you don't have access");
    expect(entries).toEqual([
      expect.objectContaining({
        actor: TEST_USERS.nobody,
        action: 'revoke',
        outcome: 'refused',
        licenseId: '4001',
        detail: 'no access to License Desk (command)',
      }),
    ]);
  });

  it('someone without a role types a read of student data: recorded as a refused command', async () => {
    const { entries } = await typed('show 4001', TEST_USERS.nobody);
    expect(entries).toEqual([
      expect.objectContaining({
        actor: TEST_USERS.nobody,
        action: 'command',
        outcome: 'refused',
        command: 'show',
        detail: 'no access to License Desk (command)',
      }),
    ]);
    // The words typed after the subcommand (an e-mail, say) are never recorded.
    const found = await typed('find ada@contoso.com', TEST_USERS.nobody);
    expect(found.entries).toHaveLength(1);
    expect(JSON.stringify(found.entries)).not.toContain('ada@contoso.com');
  });

  it('help and the reads of pools, courses and the account are not recorded', async () => {
    for (const text of ['help', 'pools', 'courses', 'me']) {
      expect((await typed(text, TEST_USERS.nobody)).entries, text).toEqual([]);
    }
  });
});
