// Retakes README's picture of the local console, docs/console.png: `npm run screenshot:console`.
// Starts the local demo (src/main.ts with no settings, sandbox data, a temporary DATA_DIR and working
// directory, so a checkout's .env and ./data play no part), drives the page in headless Chromium
// (CHROMIUM_PATH, else /usr/bin/chromium) and plays the README's scene in #license-ops as the license
// admin: /licenses pools, an assignment through the form, and the revocation of that license through
// its confirmation. Then it stops the app. `--out <file>` writes elsewhere; PORT picks the app's port
// (default: a free one).
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const outArg = process.argv.indexOf('--out');
const out = resolve(outArg > 0 ? (process.argv[outArg + 1] ?? '') : join(root, 'docs/console.png'));
/** A student the sandbox does not know yet: the assignment creates them, with the name typed in the form. */
const STUDENT = 'carla.newcomer@contoso.com';
const STUDENT_NAME = 'Carla Newcomer';

function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH?.trim(), '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const path of candidates) {
    if (!path) continue;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {}
  }
  throw new Error('No Chromium: set CHROMIUM_PATH or install it (apt-get install chromium).');
}

/** The local demo in a child process with only the settings given here; resolves with the console's URL. */
function startApp() {
  const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-shot-data-'));
  const cwd = mkdtempSync(join(tmpdir(), 'license-desk-shot-cwd-'));
  const loader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn(process.execPath, ['--import', loader, join(root, 'src/main.ts')], {
    cwd,
    env: { PORT: process.env.PORT ?? '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', TZ: 'UTC' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((done) => child.on('exit', done));
  const url = new Promise((found, failed) => {
    const timer = setTimeout(() => failed(new Error(`The app did not start within 90 s:\n${output}`)), 90_000);
    const read = (chunk) => {
      output += chunk.toString();
      const m = /Local console \(plays Slack in your browser\): (http:\/\/localhost:\d+\/)/.exec(output);
      if (m) {
        clearTimeout(timer);
        found(m[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => {
      clearTimeout(timer);
      failed(new Error(`The app exited (${code}) before its console was up:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  };
  return { url, stop };
}

async function playScene(page, url) {
  const messages = page.locator('#messages');
  const last = () => messages.locator('article').last();
  const send = async (text) => {
    await page.locator('#box').fill(text);
    await page.locator('#box').press('Enter');
  };
  await page.goto(url);
  await page.locator('#who option').first().waitFor({ state: 'attached' });
  await page.locator('#who').selectOption('U0DEMOADM1');
  await page.getByRole('button', { name: 'license-ops' }).click();

  await send('/licenses pools');
  await last().getByRole('heading', { name: 'License pools' }).waitFor();

  // Assign: the form opens on the pool whose button was clicked; a pool with free seats, so it succeeds.
  await last().getByRole('button', { name: 'Assign' }).first().click();
  const modal = page.getByRole('dialog');
  await modal.waitFor();
  const pool = modal.getByLabel('Pool');
  if ((await pool.count()) > 0 && (await pool.inputValue()) === '') await pool.selectOption({ index: 1 });
  await modal.getByLabel(/e-mail/i).fill(STUDENT);
  await modal.getByLabel('Name').fill(STUDENT_NAME);
  await modal.locator('.modal-buttons button[type=submit]').click();
  await modal.getByText(/Assigned license/).waitFor({ timeout: 20_000 });
  const licenseId = /Assigned license (\d+)/.exec((await modal.textContent()) ?? '')?.[1];
  if (!licenseId) throw new Error(`The assignment did not succeed: ${await modal.textContent()}`);
  await modal.locator('.modal-buttons button').first().click();
  await modal.waitFor({ state: 'detached' });

  // Revoke it through its confirmation: the reply to /licenses show becomes the outcome.
  await send(`/licenses show ${licenseId}`);
  await last()
    .getByRole('button', { name: /Revoke/ })
    .first()
    .click({ timeout: 20_000 });
  await last().getByRole('button', { name: 'Revoke now' }).click();
  await messages.getByText(/Revoked license/).waitFor({ timeout: 20_000 });

  // Fonts settled, the newest messages in view, no text cursor in the box.
  await page.evaluate(() => document.fonts.ready);
  await page.locator('#box').blur();
  await messages.evaluate((list) => {
    list.scrollTop = list.scrollHeight;
  });
}

async function main() {
  const executablePath = chromiumPath();
  const { chromium } = await import('playwright-core');
  const app = startApp();
  let browser;
  try {
    const url = await app.url;
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      locale: 'en-US',
      timezoneId: 'UTC',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await playScene(page, url);
    await page.screenshot({ path: out });
    process.stdout.write(`Wrote ${relative(process.cwd(), out) || out}\n`);
  } finally {
    await browser?.close();
    await app.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
