/** What `npm run try` prints: Block Kit as readable text, and command text escaped as Slack escapes it. */
import { describe, expect, it } from 'vitest';
import {
  blocksToLines,
  escapeLikeSlack,
  isInProgress,
  messageToText,
  mrkdwnToText,
  viewToText,
} from '../../local/try/render.js';
import { helpMessage } from '../../src/app/commands/index.js';
import { buildPoolsMessage } from '../../src/browse/blocks/pools.js';
import { withSandboxMarker } from '../../src/kernel/blocks/common.js';
import { makePool, NOW } from '../support/fixtures.js';

describe('mrkdwn made readable', () => {
  it('unescapes entities after reading links, so an escaped <!channel> stays text', () => {
    expect(mrkdwnToText('`/licenses pool &lt;poolId&gt;` &amp; more')).toBe('`/licenses pool <poolId>` & more');
    expect(mrkdwnToText('&lt;!channel&gt; &amp; Co')).toBe('<!channel> & Co');
  });

  it('shows links as label (url), mentions by name, e-mails bare', () => {
    expect(mrkdwnToText('<https://example.com/a|the docs> and <https://example.com>')).toBe(
      'the docs (https://example.com/a) and https://example.com',
    );
    expect(mrkdwnToText('ask <@U0ADMIN|dana> or <@U0OTHER> in <#C0OPS|ops>')).toBe('ask @dana or @U0OTHER in #ops');
    expect(mrkdwnToText('<mailto:ada@example.com|ada@example.com>')).toBe('ada@example.com');
  });

  it('shows <!date^…> as a date', () => {
    const ts = Date.UTC(2027, 0, 15, 12) / 1000;
    expect(mrkdwnToText(`ends <!date^${ts}^{date_num}|2027-01-15>`)).toBe('ends 2027-01-15');
    expect(mrkdwnToText(`ends <!date^${ts}^{date_short}|2027-01-15>`)).toBe('ends Jan 15, 2027');
  });
});

describe('blocks as text', () => {
  it('reads a pools answer: header, summary, pool lines and each button with what it does', () => {
    const text = messageToText(
      withSandboxMarker(buildPoolsMessage({ pools: [makePool()], page: 1, canChange: true, now: NOW }), true),
    );
    expect(text).toContain('Sandbox data');
    expect(text).toContain('LICENSE POOLS');
    expect(text).toContain('1 pool · 12 of 50 seats available · page 1 of 1');
    expect(text).toContain('[Assign] (primary) → opens the assign form for pool 101 (try: assign 101)');
    expect(text).toContain('[Licenses] → shows /licenses pool 101');
    expect(text).not.toMatch(/&lt;|&gt;|&amp;|"type":/);
  });

  it('reads help with every command, placeholders intact', () => {
    const text = messageToText(helpMessage(true));
    expect(text).toContain('/licenses pool <poolId> [all]');
    expect(text).toContain('/licenses find <email | @user>');
    expect(text).toContain('/licenses revoke <licenseId>');
  });

  it('reads lists, fields, inputs and unknown blocks without failing', () => {
    const lines = blocksToLines([
      {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_list',
            style: 'ordered',
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'first' }] },
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'second' }] },
            ],
          },
        ],
      },
      { type: 'section', fields: [{ type: 'mrkdwn', text: '*Pool*\n2001' }] },
      {
        type: 'input',
        optional: true,
        label: { type: 'plain_text', text: 'End date' },
        element: { type: 'datepicker', initial_date: '2027-01-01' },
      },
      { type: 'video' },
      'not a block',
    ]);
    expect(lines).toEqual([
      '  1. first',
      '  2. second',
      '  Pool',
      '  2001',
      'End date (optional): [date picker: 2027-01-01]',
      '[video block]',
      '[unknown block]',
    ]);
  });

  it('reads mrkdwn as a person does: no emphasis markers, emoji for shortcodes, code and names left alone', () => {
    expect(mrkdwnToText('*Mastering DAX* · pool `2004` · *3* of 12 · _soon_ · ~gone~')).toBe(
      'Mastering DAX · pool `2004` · 3 of 12 · soon · gone',
    );
    expect(mrkdwnToText(':repeat: Transferable :large_green_circle: :no_such_emoji:')).toBe(
      '🔁 Transferable 🟢 :no_such_emoji:',
    );
    expect(mrkdwnToText('`*kept*` snake_case a_b@x.com 2 * 3 * 4 at 09:00:00')).toBe(
      '`*kept*` snake_case a_b@x.com 2 * 3 * 4 at 09:00:00',
    );
    expect(mrkdwnToText('*<https://x.com/a_b|docs>* by <@U0DEMOSTU1|alberto.rossi>')).toBe(
      'docs (https://x.com/a_b) by @alberto.rossi',
    );
  });

  it('frames a modal with its title and buttons, and knows a loading one', () => {
    const loading = {
      type: 'modal',
      title: { type: 'plain_text', text: 'Assign a license' },
      close: { type: 'plain_text', text: 'Close' },
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: ':hourglass_flowing_sand: Reading your pools…' } }],
    };
    const lines = viewToText(loading).split('\n');
    expect(lines[0]).toMatch(/^┌─ Assign a license ─{3,}$/);
    expect(lines.slice(1)).toEqual(['│ ⏳ Reading your pools…', '└─ [Close]']);
    expect(isInProgress(loading)).toBe(true);
    const form = {
      ...loading,
      blocks: [
        {
          type: 'input',
          label: { type: 'plain_text', text: 'Students' },
          element: {
            type: 'plain_text_input',
            multiline: true,
            placeholder: { type: 'plain_text', text: 'a@b.c\nd@e.f' },
          },
        },
      ],
    };
    // A placeholder over two lines stays inside the frame.
    expect(viewToText(form).split('\n').slice(1, -1)).toEqual([
      '│ Students: [text box, several lines: a@b.c',
      '│ d@e.f]',
    ]);
    expect(isInProgress({ ...loading, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Done.' } }] })).toBe(
      false,
    );
  });
});

describe('the command text as Slack sends it (should_escape)', () => {
  const users = [{ id: 'U0DEMOSTU1', name: 'alberto.rossi' }];

  it('turns a known @name into a mention and an e-mail into a mailto link', () => {
    expect(escapeLikeSlack('find @alberto.rossi', users)).toBe('find <@U0DEMOSTU1|alberto.rossi>');
    expect(escapeLikeSlack('find ada@example.com', users)).toBe('find <mailto:ada@example.com|ada@example.com>');
  });

  it('leaves an unknown @name as typed, and escapes &, < and >', () => {
    expect(escapeLikeSlack('find @nobody', users)).toBe('find @nobody');
    expect(escapeLikeSlack('x <y> & z', users)).toBe('x &lt;y&gt; &amp; z');
  });
});
