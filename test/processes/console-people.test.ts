/**
 * The local console as several people use it, in a real browser (headless Chromium) against `npm start`
 * with nothing configured: switching "You are" with a form open, what the page draws of Slack's menus
 * and buttons, and which channels each role is in (the private ones only for the roles Slack would
 * have there), checked at the console's own HTTP boundary too.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumSkipReason,
  lastMessageIn,
  type OpenConsole,
  openConsole,
  sendInConsole,
} from '../support/chromium.js';

const ADMIN = 'U0DEMOADM1';
const VIEWER = 'U0DEMOVWR1';
const MEMBER = 'U0DEMOMEM1';
const GUEST = 'U0DEMOGST1';
const AUDIT = 'C0DEMOAUDT';
const PRIVATE = ['license-audit', 'license-alerts', 'license-requests'];
const STUDENT = 'private.channel.check@contoso.com';

describe.skipIf(chromiumSkipReason !== undefined)('the local console for each person', () => {
  let app: OpenConsole | undefined;
  let page: Page;
  let origin: string;

  beforeAll(async () => {
    app = await openConsole({ viewport: { width: 1280, height: 860 }, timeoutMs: 10_000 });
    ({ page, origin } = app);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  const send = (text: string) => sendInConsole(page, text);
  const lastMessage = () => lastMessageIn(page);
  const dialog = () => page.getByRole('dialog');
  const become = async (who: string) => {
    // The page then streams that person's state (/console/events?user=…).
    await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/console/events?user=${who}`)),
      page.locator('#who').selectOption(who),
    ]);
  };

  it('switching "You are" while a form is open puts that form away, and gives it back to its owner with what they typed', async () => {
    await become(ADMIN);
    await page.getByRole('button', { name: 'license-ops' }).click();
    await send('/licenses assign 2004');
    await dialog().waitFor();
    const title = await dialog().locator('h2').textContent();
    const typed = 'typed.before.switch@contoso.com';
    await dialog()
      .getByLabel(/e-mail/i)
      .fill(typed);

    await become(VIEWER);
    // The admin's form is not on the viewer's screen, and nothing blocks the page.
    await expect.poll(() => dialog().count()).toBe(0);
    await send('/licenses pools');
    await lastMessage().getByRole('heading', { name: 'License pools' }).waitFor({ timeout: 15_000 });

    // Back to the admin: their form is still open, as Slack keeps it, and Cancel closes it.
    await become(ADMIN);
    await dialog().waitFor();
    expect(await dialog().locator('h2').textContent()).toBe(title);
    // What the admin typed is still in the form, as Slack keeps it on their screen.
    expect(
      await dialog()
        .getByLabel(/e-mail/i)
        .inputValue(),
    ).toBe(typed);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    expect(await dialog().count()).toBe(0);
  });

  it("the request form's course menu shows each option's description: the seats, or that the pool is full", async () => {
    await become(MEMBER);
    await page.getByRole('button', { name: 'license-ops' }).click();
    await send('/licenses request');
    await dialog().waitFor({ timeout: 15_000 });
    const courses = await dialog().getByLabel('Course').locator('option').allTextContents();
    // Slack shows the option's description under its text; the console's menu shows it after the text.
    expect(
      courses.filter((t) => /· pool \d+ — full: you'll join the waitlist( · license runs to .+)?$/.test(t)).length,
    ).toBeGreaterThan(0);
    expect(
      courses.filter((t) => /· pool \d+ — \d+ free seats?( · license runs to .+)?$/.test(t)).length,
    ).toBeGreaterThan(0);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('draws a danger button solid red with white text, as Slack does', async () => {
    await become(ADMIN);
    await send('/licenses show 4001');
    const revoke = lastMessage().getByRole('button', { name: /^Revoke/ });
    await revoke.waitFor({ timeout: 15_000 });
    const look = await revoke.evaluate((b) => {
      // Runs in the page; the test's own types know no DOM.
      const style = (
        globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }
      ).getComputedStyle(b);
      return { background: style.backgroundColor, color: style.color };
    });
    expect(look).toEqual({ background: 'rgb(224, 30, 90)', color: 'rgb(255, 255, 255)' });
  });

  it('"You are" is wide enough for every person and role, "member, no role" included', async () => {
    const labels = await page.locator('#who option').allTextContents();
    expect(labels.some((l) => l.endsWith('member, no role'))).toBe(true);
    const clipped = await page.locator('#who').evaluate((node) => {
      const select = node as unknown as { getBoundingClientRect(): { width: number }; style: { width: string } };
      const shown = select.getBoundingClientRect().width;
      // A select's max-content width is what its longest option needs (text, padding and arrow).
      select.style.width = 'max-content';
      const needed = select.getBoundingClientRect().width;
      select.style.width = '';
      return needed - shown;
    });
    expect(clipped).toBeLessThanOrEqual(0.5);
  });

  const channelNames = () => page.locator('#channels .nav-item').allTextContents();

  it('shows the private channels (audit, alerts, requests) to license admins and viewers only', async () => {
    for (const who of [ADMIN, VIEWER]) {
      await become(who);
      await expect.poll(channelNames).toEqual(expect.arrayContaining(['#license-ops', ...PRIVATE.map((n) => `#${n}`)]));
    }
    for (const who of [MEMBER, GUEST]) {
      await become(who);
      await expect.poll(channelNames).toContain('#license-ops');
      expect((await channelNames()).filter((n) => PRIVATE.some((p) => n.includes(p)))).toEqual([]);
    }
  });

  /** The first state the console streams to a person, as the page receives it. */
  const stateOf = async (
    user: string,
  ): Promise<{ channels: { id: string }[]; messages: { ts: string; channel: string }[] }> => {
    const res = await fetch(`${origin}/console/events?user=${user}`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
    return JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? 'null');
  };
  const postAs = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { ok: boolean; error?: string } };
  };

  it("refuses a private channel's content to a member at the console's HTTP boundary: state, typing, clicks, the alert check", async () => {
    // The admin assigns a license: the audit channel gets a post with the student's e-mail.
    await become(ADMIN);
    await page.getByRole('button', { name: 'license-ops' }).click();
    await send('/licenses assign 2004');
    await dialog().waitFor({ timeout: 15_000 });
    await dialog()
      .getByLabel(/e-mail/i)
      .fill(STUDENT);
    // A made-up student no Slack member is: the form needs the name the licensing service will show.
    await dialog().getByLabel(/^Name/).fill('Private Check');
    await dialog().locator('.modal-buttons button[type=submit]').click();
    await dialog()
      .getByText(/Assigned license/)
      .waitFor({ timeout: 15_000 });
    await dialog().locator('.modal-buttons button').first().click();
    await expect
      .poll(async () => JSON.stringify((await stateOf(ADMIN)).messages.filter((m) => m.channel === AUDIT)), {
        timeout: 15_000,
      })
      .toContain(STUDENT);
    const auditPost = (await stateOf(ADMIN)).messages.find((m) => m.channel === AUDIT);

    // The member's stream has neither the channel nor anything posted there.
    const member = await stateOf(MEMBER);
    expect(member.channels.map((c) => c.id)).not.toContain(AUDIT);
    expect(JSON.stringify(member)).not.toContain(STUDENT);

    // Typing there, clicking on its post and running its alert check are refused, with the reason.
    const typed = await postAs('/console/command', { user: MEMBER, channel: AUDIT, text: 'hello' });
    expect(typed.status).toBe(403);
    expect(typed.body.error).toMatch(/#license-audit is a private channel you are not in/);
    const clicked = await postAs('/console/action', {
      user: MEMBER,
      surface: { type: 'message', channel: AUDIT, ts: auditPost?.ts },
      action: { type: 'button', action_id: 'anything' },
    });
    expect(clicked.status).toBe(404);
    const alerts = await postAs('/console/alerts-now', { user: GUEST });
    expect(alerts.status).toBe(403);
    expect(alerts.body.error).toMatch(/#license-alerts is a private channel you are not in/);
    expect(JSON.stringify(await stateOf(ADMIN))).not.toContain('hello');
  });

  it("hands a DM's file (the CSV export, with e-mails) to its person only", async () => {
    await become(ADMIN);
    await send('/licenses export');
    let file: { id: string; url: string } | undefined;
    await expect
      .poll(
        async () => {
          const admin = (await stateOf(ADMIN)) as unknown as { messages: { file?: { id: string; url: string } }[] };
          file = admin.messages.find((m) => m.file)?.file;
          return file !== undefined;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const as = async (user?: string) => (await fetch(`${origin}${file?.url}${user ? `?user=${user}` : ''}`)).status;
    expect(await as(ADMIN)).toBe(200);
    expect(await as(MEMBER)).toBe(404);
    expect(await as()).toBe(400);
  });
});
