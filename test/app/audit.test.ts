/**
 * The audit trail: every change and every refused attempt is a structured log line
 * (the e-mail masked) and, with AUDIT_CHANNEL set, a message there (escaped, with a text fallback);
 * a failing post never reaches the person. (The audit table: test/stores/db/audit.test.ts and
 * test/processes/audit-table.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { ChangeActionId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { assignState, openModal, settledView, submit } from '../support/change-flow.js';

const AUDIT = 'C0AUDIT0001';
const t = appPerFile('audit-', () => startTestApp({ auditChannel: AUDIT }));

const posts = () => t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === AUDIT);

async function nextPost(from: number) {
  return t.slack.waitForCall('chat.postMessage', (c) => c.args.channel === AUDIT && t.slack.calls.indexOf(c) >= from);
}

describe('audit', () => {
  it('an assign: a log line without the e-mail, and a post in the audit channel with who, what, student, license, pool, when', async () => {
    const view = await openModal(t, () => t.command('assign 2007'));
    const from = t.slack.calls.length;
    await submit(t, view, assignState({ pool: '2007', email: 'ada.audit@contoso.com', name: '<!channel> Ada' }));
    await settledView(t, view.id, from);
    const post = await nextPost(from);
    const text = String(post.args.text);
    expect(text).toMatch(
      new RegExp(`<@${TEST_USERS.admin}> assigned license \`\\d+\` for \\*Power Query Fundamentals\\* to`),
    );
    expect(text).toContain('ada.audit@contoso.com');
    expect(text).toContain('&lt;!channel&gt; Ada');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('pool `2007`');
    expect(text).toMatch(/license `\d+`/);
    expect(JSON.stringify(post.args.blocks)).toMatch(/<!date\^\d+\^/);
    expect(checkBlockKitLimits({ text, blocks: post.args.blocks })).toEqual([]);
    const line = t.logs.find((l) => l.message === 'audit' && l.poolId === '2007' && l.outcome === 'done');
    expect(line).toMatchObject({ actor: TEST_USERS.admin, action: 'assign', studentEmail: 'a***@contoso.com' });
    expect(JSON.stringify(t.logs)).not.toContain('ada.audit@contoso.com');
    expect((await t.audit.recent(1))?.[0]).toMatchObject({
      action: 'assign',
      studentEmail: 'ada.audit@contoso.com',
    });
  });

  it('a refused attempt (a viewer) and a refusal by the API are posted too', async () => {
    const from = t.slack.calls.length;
    await t.clickButton(ChangeActionId.revokeConfirm, '4001', { userId: TEST_USERS.viewer });
    expect(String((await nextPost(from)).args.text)).toContain(
      `<@${TEST_USERS.viewer}> tried to revoke license \`4001\``,
    );
    const again = t.slack.calls.length;
    await t.clickButton(ChangeActionId.revokeConfirm, '4018');
    const refused = await nextPost(again);
    expect(String(refused.args.text)).toContain(':no_entry_sign: refused');
    expect(JSON.stringify(refused.args.blocks)).toContain('cannot be revoked');
  });

  it('a failing audit post never reaches the person: the change is shown, the failure logged', async () => {
    t.slack.answer('chat.postMessage', { ok: false, error: 'not_in_channel' });
    try {
      const before = posts().length;
      const r = await t.clickButton(ChangeActionId.revokeConfirm, '4008');
      const done = await r.waitForResponse((p) => String(p.body.text).includes('Revoked'));
      expect(done.body.replace_original).toBe(true);
      await t.slack.waitForCall('chat.postMessage', (c) => posts().indexOf(c) >= before);
      for (let i = 0; i < 50 && !t.logs.some((l) => l.message === 'could not post to the audit channel'); i += 1) {
        await new Promise((res) => setTimeout(res, 20));
      }
      expect(t.logs.some((l) => l.message === 'could not post to the audit channel')).toBe(true);
    } finally {
      t.slack.answer('chat.postMessage', undefined);
    }
  });
});
