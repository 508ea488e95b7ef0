/**
 * A seat offered from the waitlist in the local console, in headless Chromium against `npm start`
 * with nothing configured (so WAITLIST_OFFER_HOURS at its default, 48): the member asks for the full
 * pool 2003, the admin approves and adds the request to the waitlist, then revokes a seat of that pool;
 * the member's DM with the app shows the offer with Claim and "I don't need it", and Claim gives the seat.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, type OpenConsole, openConsole, sendInConsole } from '../support/chromium.js';

const ADMIN = 'U0DEMOADM1';
const MEMBER = 'U0DEMOMEM1';
/** The demo's second active license of pool 2003 (local/sandbox/seed.ts numbers them from 4001). */
const SEAT_2003 = '4025';

describe.skipIf(chromiumSkipReason !== undefined)('a seat offered from the waitlist in the local console', () => {
  let app: OpenConsole | undefined;
  let page: Page;

  beforeAll(async () => {
    app = await openConsole({ viewport: { width: 1280, height: 1000 }, timeoutMs: 15_000, env: {} });
    page = app.page;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  const dialog = () => page.getByRole('dialog');
  const messages = () => page.locator('#messages article');
  const become = async (who: string) => {
    await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/console/events?user=${who}`)),
      page.locator('#who').selectOption(who),
    ]);
  };
  const open = (name: string | RegExp) => page.locator('#channels .nav-item').filter({ hasText: name }).click();

  it('the first in line gets the offer in their DM when a seat frees up, and Claim gives it', async () => {
    await become(MEMBER);
    await open('license-ops');
    await sendInConsole(page, '/licenses request');
    await dialog().waitFor();
    const courses = await dialog().getByLabel('Course').locator('option').allTextContents();
    const full = courses.find((t) => /pool 2003/.test(t));
    expect(full, courses.join('\n')).toBeDefined();
    await dialog()
      .getByLabel('Course')
      .selectOption({ label: full ?? '' });
    await dialog().getByRole('button', { name: 'Send request' }).click();
    // Its outcome replaces the form, closed as Slack closes it.
    await dialog()
      .getByText(/was sent to the license admins/)
      .waitFor();
    await dialog().getByRole('button', { name: 'Close' }).first().click();
    await dialog().waitFor({ state: 'detached' });

    await become(ADMIN);
    await open('license-requests');
    const card = messages().filter({ hasText: 'Optimizing DAX' }).last();
    await card.getByRole('button', { name: 'Approve' }).click();
    const choice = page.getByRole('button', { name: /waitlist/i }).last();
    await choice.waitFor();
    await choice.click();
    await page
      .getByText(/On the waitlist, number 1/)
      .first()
      .waitFor();

    await open('license-ops');
    await sendInConsole(page, `/licenses revoke ${SEAT_2003}`);
    const confirm = messages().filter({ hasText: 'Revoke license' }).last();
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('is offered to the first person on its waitlist');
    await confirm.getByRole('button', { name: 'Revoke now' }).click();
    await page
      .getByText(/offered to/)
      .first()
      .waitFor();

    await become(MEMBER);
    await open('License Desk (DM)');
    const offer = messages().filter({ hasText: 'is yours if you claim it by' }).last();
    await offer.waitFor();
    expect(await offer.getByRole('button', { name: 'Claim' }).count()).toBe(1);
    expect(await offer.getByRole('button', { name: 'I don’t need it' }).count()).toBe(1);
    // Claim: the answer replaces the offer.
    await offer.getByRole('button', { name: 'Claim' }).click();
    await page.getByText(/You claimed the seat in Optimizing DAX/).waitFor();
  }, 90_000);
});
