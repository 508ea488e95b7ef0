import { describe, expect, it } from 'vitest';
import {
  buildExtendBlockedModal,
  buildExtendModal,
  buildPastDateConfirmView,
} from '../../../src/changes/blocks/extend-modal.js';
import { buildRecycleConfirmModal } from '../../../src/changes/blocks/recycle-confirm.js';
import {
  buildNotRevokableMessage,
  buildRevokeConfirmMessage,
  returnResultLine,
} from '../../../src/changes/blocks/revoke.js';
import { CallbackId, ChangeActionId, InputId } from '../../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits, checkModalLimits } from '../../../src/kernel/blocks/limits.js';
import { inDays, makeLicense, makePool, mrkdwnText, NOW } from '../../support/fixtures.js';

const hostile = makeLicense({
  student: { id: '1', name: `<!channel> & ${'Co '.repeat(100)}`, email: `${'x'.repeat(240)}@contoso.com` },
});
const pool = makePool({ course: { id: 'c', title: `<!here> ${'Title '.repeat(80)}` } });
// plain_text is never parsed by Slack; mrkdwn (and a message's text) must carry no live mention.
const noPings = (v: unknown) => expect(mrkdwnText(v)).not.toMatch(/<!channel>|<!here>/);

describe('extend', () => {
  it('the form: current end, pool end, quick choices as radio buttons, a date picker; within limits', () => {
    const view = buildExtendModal({
      license: hostile,
      pool,
      privateMetadata: '{"l":"5001"}',
      now: NOW,
      initialDate: '2026-05-01',
    });
    expect(checkModalLimits(view)).toEqual([]);
    noPings(view);
    expect(JSON.stringify(view)).toContain('Current end');
    expect(view.blocks.some((b) => b.block_id === InputId.extendQuick.block)).toBe(true);
    expect(JSON.stringify(view)).toContain('"initial_date":"2026-05-01"');
  });

  it('the past-date confirmation says the license ends now and can never be edited again', () => {
    const view = buildPastDateConfirmView({
      licenseId: '5001',
      license: hostile,
      pool,
      day: '2026-02-01',
      privateMetadata: '{}',
    });
    expect(view.callback_id).toBe(CallbackId.extendPastConfirm);
    expect(JSON.stringify(view)).toContain('*ends now*');
    expect(JSON.stringify(view)).toContain('can never be edited again');
    expect(checkModalLimits(view)).toEqual([]);
    const bare = buildPastDateConfirmView({
      licenseId: '5001',
      license: undefined,
      pool: undefined,
      day: '2026-02-01',
      privateMetadata: '{}',
    });
    expect(checkModalLimits(bare)).toEqual([]);
  });

  it('blocked: says why, nothing to submit', () => {
    const view = buildExtendBlockedModal(hostile, makePool({ transferable: false }), 'not-transferable');
    expect(view.submit).toBeUndefined();
    expect(JSON.stringify(view)).toContain('not transferable');
  });
});

describe('revoke', () => {
  it('the confirmation names student, course and pool, what follows, and has Revoke now / Cancel', () => {
    const message = buildRevokeConfirmMessage(hostile, pool);
    expect(checkBlockKitLimits(message)).toEqual([]);
    noPings(message);
    const text = JSON.stringify(message);
    expect(text).toContain('loses access to the course *now*');
    expect(text).toContain('the seat goes back to it');
    expect(text).toContain(ChangeActionId.revokeConfirm);
    expect(JSON.stringify(buildRevokeConfirmMessage(hostile, makePool({ transferable: false })))).toContain(
      'seat does not come back',
    );
  });

  it('not revokable: why, and no buttons', () => {
    const message = buildNotRevokableMessage(hostile, pool, 'not-revokable');
    expect(message.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(checkBlockKitLimits(message)).toEqual([]);
  });
});

describe('recycle', () => {
  it('names the default license with progress, offers ≤ 100 candidates, within limits', () => {
    const candidates = Array.from({ length: 100 }, (_, i) =>
      makeLicense({ id: String(9000 + i), start: inDays(-200 + i), student: hostile.student }),
    );
    const view = buildRecycleConfirmModal({
      pool: makePool({ availableLicenses: 0 }),
      candidates,
      defaultLicense: candidates[0],
      defaultProgress: { progress: 42.4, completed: null },
      newStudent: { email: 'new@contoso.com', name: '<!channel>' },
      privateMetadata: '{}',
    });
    expect(checkModalLimits(view)).toEqual([]);
    noPings(view);
    expect(JSON.stringify(view)).toContain('42 % of the course done');
    expect(JSON.stringify(view)).toContain('"initial_option"');
  });

  it('no active license to end: says so, nothing to submit', () => {
    const view = buildRecycleConfirmModal({
      pool,
      candidates: [],
      defaultLicense: undefined,
      defaultProgress: undefined,
      newStudent: { email: 'a@contoso.com' },
      privateMetadata: '{}',
    });
    expect(view.submit).toBeUndefined();
  });
});

describe("App Home's line about Return this seat", () => {
  const license = makeLicense({ student: { id: '1', name: 'Alice <Example>', email: 'alice@contoso.com' } });
  const transferable = makePool({ transferable: true, course: { id: 'c', title: 'Mastering DAX' } });
  it('says where the return stands, escaped, in one line', () => {
    expect(returnResultLine({ kind: 'revokable', license, pool: transferable })).toContain(
      'Confirm the return of *Mastering DAX* of *Alice &lt;Example&gt;* in your DM with License Desk.',
    );
    const done = { kind: 'done', value: license, checked: false } as const;
    expect(returnResultLine({ kind: 'written', license, pool: transferable, write: done })).toBe(
      ':white_check_mark: Returned *Mastering DAX* of *Alice &lt;Example&gt;* — the seat is free again.',
    );
    expect(
      returnResultLine({ kind: 'written', license, pool: transferable, write: { kind: 'unknown', stopped: false } }),
    ).toContain('is not confirmed yet');
    expect(returnResultLine({ kind: 'blocked', license, pool: transferable, blocker: 'inactive' })).toContain(
      "can't be revoked: it is no longer active.",
    );
    const hostileLine = returnResultLine({ kind: 'written', license: hostile, pool, write: done });
    expect(hostileLine).not.toMatch(/<!channel>|<!here>/);
    expect(hostileLine).not.toContain('\n');
  });
});
