/**
 * The local console in a real browser (headless Chromium): `npm start` with nothing configured, the
 * page at http://localhost:PORT/, and a person who runs commands, clicks, fills forms and switches
 * roles. Everything the page does reaches the app as signed Slack requests; what the app sends back
 * is drawn from its real Block Kit. Screenshots land in screenshots/ (git-ignored).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageHint } from '../../src/app/commands/index.js';
import {
  chromiumSkipReason,
  lastMessageIn,
  type OpenConsole,
  openConsole,
  screenshotDir,
  sendInConsole,
} from '../support/chromium.js';

const STUDENT = 'console.newcomer@contoso.com';
const STUDENT_NAME = 'Carla Newcomer';
let licenseId = '';

describe.skipIf(chromiumSkipReason !== undefined)('the local console in a browser', () => {
  let app: OpenConsole | undefined;
  let page: Page;
  const shots = screenshotDir();
  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`) });

  beforeAll(async () => {
    app = await openConsole({ viewport: { width: 1280, height: 860 }, timezoneId: 'Asia/Tokyo', timeoutMs: 10_000 });
    page = app.page;
    expect(await page.locator('#who').inputValue()).toBe('U0DEMOADM1');
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  const send = (text: string) => sendInConsole(page, text);
  const messages = () => page.locator('#messages');
  const lastMessage = () => lastMessageIn(page);

  it('shows the usage hint, runs /licenses pools and draws the pools from Block Kit', async () => {
    await page.locator('#box').fill('/');
    await expect.poll(() => page.locator('#hint').isVisible()).toBe(true);
    // The same hint as manifest.yml's, served from the table of subcommands.
    await expect.poll(() => page.locator('#hint').textContent()).toBe(`/licenses ${usageHint()}`);
    // A command the workspace does not have is refused visibly, as Slack does.
    await send('/lisences pools');
    await page.locator('#notices').getByText('/lisences is not a valid command').waitFor();
    expect(await page.locator('#composer-error').textContent()).toContain('/licenses help');
    expect(await page.locator('#box').inputValue()).toBe('/lisences pools');
    await page.locator('#notices').getByRole('button', { name: 'Dismiss' }).click();
    await send('/licenses pools');
    await page.getByRole('heading', { name: 'License pools' }).waitFor();
    expect(await page.locator('#composer-error').textContent()).toBe('');
    expect(await lastMessage().textContent()).toContain('Only visible to you');
    // Buttons, fields and emoji come from the blocks, not from the fallback text.
    expect(await lastMessage().getByRole('button', { name: 'Assign' }).count()).toBeGreaterThan(0);
    expect(await lastMessage().locator('.emoji').first().textContent()).not.toMatch(/^:/);
    await shot('console-pools');
    // Arrow up brings the command back.
    await page.locator('#box').press('ArrowUp');
    expect(await page.locator('#box').inputValue()).toBe('/licenses pools');
    await page.locator('#box').fill('');
  });

  it('assigns through the form: an inline error first, then the outcome and the audit post', async () => {
    await lastMessage().getByRole('button', { name: 'Assign' }).first().click();
    const modal = page.getByRole('dialog');
    await modal.waitFor();
    await expect.poll(() => modal.locator('h2').textContent()).toMatch(/Assign/);
    // The first pool the form offers (the list's first Assign may be a pool that has ended).
    await modal.getByLabel('Pool').selectOption({ index: 1 });
    await modal.getByLabel(/e-mail/i).fill('not-an-email');
    await modal
      .getByRole('button', { name: /Assign|Submit|Next/ })
      .last()
      .click();
    await modal.locator('.input-error').first().waitFor();
    expect(await modal.locator('.input-error').first().textContent()).toMatch(/e-mail|address/i);
    await shot('console-assign-form');
    await modal.getByLabel(/e-mail/i).fill(STUDENT);
    await modal.getByLabel(/^Name/).fill(STUDENT_NAME);
    await modal
      .getByRole('button', { name: /Assign|Submit|Next/ })
      .last()
      .click();
    // The outcome replaces the form (views.update), which then closes as Slack closes it.
    await modal.getByText(/Assigned license/).waitFor({ timeout: 15_000 });
    const outcome = (await modal.textContent()) ?? '';
    expect(outcome).toContain(STUDENT);
    expect(outcome).toContain(STUDENT_NAME);
    licenseId = /Assigned license (\d+)/.exec(outcome)?.[1] ?? '';
    await shot('console-assigned');
    await modal.locator('.modal-buttons').getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'license-audit' }).click();
    await messages().getByText(STUDENT).first().waitFor();
    expect(await lastMessage().textContent()).toMatch(/assign/i);
    await shot('console-audit');
  });

  it('revokes through the confirmation', async () => {
    await page.getByRole('button', { name: 'license-ops' }).click();
    expect(licenseId).not.toBe('');
    await send(`/licenses show ${licenseId}`);
    await lastMessage()
      .getByRole('button', { name: /Revoke/ })
      .first()
      .waitFor({ timeout: 15_000 });
    await lastMessage()
      .getByRole('button', { name: /Revoke/ })
      .first()
      .click();
    await lastMessage().getByRole('button', { name: 'Revoke now' }).waitFor();
    await lastMessage().getByRole('button', { name: 'Revoke now' }).click();
    await expect.poll(async () => (await messages().textContent()) ?? '', { timeout: 15_000 }).toMatch(/revoked/i);
    await shot('console-revoked');
  });

  it('sends the CSV export to the DM, where it can be downloaded', async () => {
    await send('/licenses export');
    await page.getByRole('button', { name: 'License Desk (DM)' }).click();
    const link = messages().locator('a.file-name');
    await link.waitFor({ timeout: 20_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    const csv = await readFile(path, 'utf8');
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    expect(csv).toContain(STUDENT);
    await shot('console-export');
  });

  it('runs the daily alert check on demand: the alerts land in #license-alerts', async () => {
    await page.getByRole('button', { name: 'license-alerts' }).click();
    await page.getByRole('button', { name: 'Run the daily alert check now' }).click();
    await messages().locator('article').first().waitFor({ timeout: 20_000 });
    expect(await messages().textContent()).toMatch(/full|ending|ends/i);
    await shot('console-alerts');
    // Let it end: the click carries the alert message, and the app edits that message in place.
    await messages().getByRole('button', { name: 'Let it end' }).first().click();
    await messages().getByText('chose to let it end').waitFor({ timeout: 15_000 });
  });

  it('opens App Home', async () => {
    await page.getByRole('button', { name: /Home/ }).click();
    await page.locator('#home h3').first().waitFor({ timeout: 15_000 });
    expect(await page.locator('#home').textContent()).toMatch(/pool/i);
    await shot('console-home');
  });

  it('as a license viewer: the pools without the buttons that change licenses; @name sent escaped', async () => {
    await page.locator('#who').selectOption('U0DEMOVWR1');
    await page.getByRole('button', { name: 'license-ops' }).click();
    await send('/licenses pools');
    await lastMessage().getByRole('heading', { name: 'License pools' }).waitFor({ timeout: 15_000 });
    expect(await lastMessage().getByRole('button', { name: 'Licenses' }).count()).toBeGreaterThan(0);
    expect(await lastMessage().getByRole('button', { name: 'Assign' }).count()).toBe(0);
    // Typed as a mention, sent as Slack sends it (<@U0DEMOSTU1|alberto.rossi>): the app reads the e-mail.
    await send('/licenses find @alberto.rossi');
    await expect
      .poll(async () => (await lastMessage().textContent()) ?? '', { timeout: 15_000 })
      .toMatch(/alberto\.rossi@contoso\.com/);
    await shot('console-viewer');
  });

  it("draws the help's commands as code, as Slack does when a colon follows the closing backtick", async () => {
    await send('/licenses help');
    await lastMessage().getByRole('heading', { name: 'License Desk: /licenses' }).waitFor({ timeout: 15_000 });
    const codes = await lastMessage().locator('code').allTextContents();
    expect(codes).toContain('/licenses pools [page]');
    expect(codes).toContain('/licenses pool <poolId> [all]');
    expect(await lastMessage().textContent()).not.toContain('`');
  });

  it('as a member with no role, the same command is refused', async () => {
    await page.locator('#who').selectOption('U0DEMOMEM1');
    await page.getByRole('button', { name: 'license-ops' }).click();
    await send('/licenses pools');
    await expect
      .poll(async () => (await lastMessage().textContent()) ?? '', { timeout: 15_000 })
      .toMatch(/ask|not allowed|permission|only/i);
    expect(await lastMessage().getByRole('button', { name: 'Assign' }).count()).toBe(0);
    await shot('console-refused');
  });

  it('draws mrkdwn and every Block Kit element the console knows, dates in the browser time zone', async () => {
    // Runs in the page as plain JavaScript (a string, so that the test runner leaves its imports alone).
    const html = (await page.evaluate(`(async () => {
      const { renderMrkdwn } = await import('/console/mrkdwn.js');
      const { renderBlocks } = await import('/console/blocks.js');
      const ctx = {
        users: new Map([['U0DEMOSTU1', 'alberto.rossi']]),
        channels: new Map([['C0DEMOOPS1', 'license-ops']]),
        userList: [{ id: 'U0DEMOSTU1', name: 'alberto.rossi', realName: 'Alberto Rossi' }],
        values: {},
        onAction: () => undefined,
        confirm: async () => true,
      };
      const text = renderMrkdwn(
        '*bold* _it_ ~gone~ \`code\` <https://example.com|a link> <@U0DEMOSTU1> <!subteam^S0ADMINS|@admins> <#C0DEMOOPS1> :tada: <!date^1700000000^{date_num} {time}|fallback> &lt;b&gt;',
        ctx,
      );
      const option = (t) => ({ text: { type: 'plain_text', text: t }, value: t });
      const blocks = renderBlocks(
        [
          { type: 'header', text: { type: 'plain_text', text: 'Header :wave:' } },
          {
            type: 'section',
            fields: [{ type: 'mrkdwn', text: '*Field*' }],
            accessory: { type: 'overflow', action_id: 'o', options: [option('One'), option('Two')] },
          },
          { type: 'divider' },
          {
            type: 'actions',
            elements: [
              { type: 'button', action_id: 'b', text: { type: 'plain_text', text: 'Danger' }, style: 'danger' },
              { type: 'static_select', action_id: 's', options: [option('Pick me')] },
              { type: 'users_select', action_id: 'u' },
              { type: 'datepicker', action_id: 'd', initial_date: '2026-01-31' },
              { type: 'checkboxes', action_id: 'c', options: [option('Box')] },
              { type: 'radio_buttons', action_id: 'r', options: [option('Radio')] },
            ],
          },
          {
            type: 'rich_text',
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'rich', style: { bold: true } }] },
            ],
          },
          { type: 'image', image_url: 'data:image/png;base64,iVBORw0KGgo=', alt_text: 'a picture' },
          { type: 'mystery' },
        ],
        ctx,
      );
      return { text: text.innerHTML, blocks: blocks.innerHTML, date: blocks.querySelector('input[type=date]').value };
    })()`)) as { text: string; blocks: string; date: string };
    expect(html.text).toContain('<strong>bold</strong>');
    expect(html.text).toContain('<em>it</em>');
    expect(html.text).toContain('<del>gone</del>');
    expect(html.text).toContain('<code>code</code>');
    expect(html.text).toMatch(/<a href="https:\/\/example.com\/?"[^>]*>a link<\/a>/);
    expect(html.text).toContain('@alberto.rossi');
    expect(html.text).toContain('@admins');
    expect(html.text).toContain('#license-ops');
    expect(html.text).toContain('🎉');
    // 1700000000 is 2023-11-14 22:13 UTC: the next morning in Tokyo, the page's time zone.
    expect(html.text).toMatch(/2023-11-15 7:13/);
    expect(html.text).toContain('&lt;b&gt;');
    expect(html.blocks).toContain('Header 👋');
    expect(html.blocks).toContain('btn danger');
    for (const bit of [
      'overflow-button',
      'Pick me',
      'Alberto Rossi',
      'type="date"',
      'checkbox',
      'radio',
      'a picture',
    ]) {
      expect(html.blocks).toContain(bit);
    }
    expect(html.date).toBe('2026-01-31');
    expect(html.blocks).toContain('<strong><span>rich</span></strong>');
    expect(html.blocks).toContain('Slack would reject this: unknown block type “mystery”');
  });

  it('as a guest: refused too, and App Home shows no data', async () => {
    await page.locator('#who').selectOption('U0DEMOGST1');
    await send('/licenses pools');
    await expect
      .poll(async () => (await lastMessage().textContent()) ?? '', { timeout: 15_000 })
      .toMatch(/ask|not allowed|permission|only/i);
    await page.getByRole('button', { name: /Home/ }).click();
    await page.locator('#home .blocks').waitFor({ timeout: 15_000 });
    expect(await page.locator('#home').textContent()).not.toMatch(/pool 200\d/);
  });
});
