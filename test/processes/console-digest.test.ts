/**
 * The weekly digest in the local console (headless Chromium): `/licenses digest` typed in the page,
 * its two charts drawn as inline SVG from the real data_visualization blocks, with as many bars and
 * points as the blocks' words say, and the words beside them (docs/digest.md).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, type OpenConsole, openConsole, screenshotDir } from '../support/chromium.js';

describe.skipIf(chromiumSkipReason !== undefined)('the digest in the local console', () => {
  let app: OpenConsole | undefined;
  let page: Page;

  beforeAll(async () => {
    app = await openConsole({ viewport: { width: 1280, height: 1400 }, timeoutMs: 15_000 });
    page = app.page;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('draws the seats line and the progress bars as SVG, with the words that say the same', async () => {
    const message = page.locator('#messages article').last();
    // The demo's progress records are seeded in the background at start: ask again until they are in.
    for (let tries = 0; ; tries++) {
      await page.locator('#box').fill('/licenses digest');
      await page.locator('#box').press('Enter');
      await message.getByRole('heading', { name: 'License digest' }).waitFor();
      if ((await message.locator('svg.chart-bar').count()) > 0 || tries >= 10) break;
      await page.waitForTimeout(500);
    }
    const line = message.locator('svg.chart-line');
    const bars = message.locator('svg.chart-bar');
    await line.waitFor();
    await bars.waitFor();
    expect(await message.locator('figure.chart').count()).toBe(2);

    // The bar chart: one bar per course series and progress bucket (4 buckets), and the legend names
    // the courses the words list under "Progress:".
    const legend = await message.locator('figure.chart').nth(1).locator('.chart-legend li').allTextContents();
    expect(legend.length).toBeGreaterThan(0);
    expect(await bars.locator('rect.bar').count()).toBe(legend.length * 4);
    const text = (await message.textContent()) ?? '';
    for (const course of legend) {
      // A series name is the course title cut to Slack's 20 characters ("Data Modeling for P…"); the words say it whole.
      expect(Array.from(course).length).toBeLessThanOrEqual(20);
      const cut = course.endsWith('…') ? course.slice(0, -1) : course;
      const said = new RegExp(
        `${cut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${course.endsWith('…') ? '[^:;]*' : ''}: (\\d+) at 0 %, (\\d+) at 1–49 %, (\\d+) at 50–99 %, (\\d+) completed`,
      ).exec(text);
      expect(said, `the words for ${course}`).not.toBeNull();
      const titles = await bars.locator('rect.bar title').allTextContents();
      for (const [i, bucket] of ['0 %', '1–49 %', '50–99 %', 'Completed'].entries()) {
        expect(titles).toContain(`${course}, ${bucket}: ${said?.[i + 1]}`);
      }
    }

    // The line chart: a point per "used" day and per forecast day, and today's seats as the words say.
    const points = await line.locator('circle.point title').allTextContents();
    expect(points.length).toBeGreaterThan(1);
    const seats = /Pool (\w+): (\d+) of (\d+) seats used/.exec(text);
    expect(seats).not.toBeNull();
    // Today's point of the first series ("used", or "used, then forecast") is the seats in use the words say.
    const today = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' }).format(
      new Date(),
    );
    expect(points.filter((p) => p.startsWith('used')).some((p) => p.endsWith(`, ${today}: ${seats?.[2]}`))).toBe(true);
    await page.screenshot({ path: join(screenshotDir(), 'console-digest.png') });
  });
});
