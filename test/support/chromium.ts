/**
 * A Chromium for the browser tests: CHROMIUM_PATH when set, else Debian's /usr/bin/chromium (CI installs
 * it with apt-get, .ci/run). Without one the tests are skipped with `chromiumSkipReason`; under CI=true a
 * missing browser is a failure instead, never a quiet skip. `openConsole` starts the app with nothing
 * configured and opens its local console in that browser.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { type MainProcess, runMain } from './run-main.js';

const candidates = [process.env.CHROMIUM_PATH?.trim(), '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  (p): p is string => typeof p === 'string' && p !== '',
);

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const chromiumPath: string | undefined = candidates.find(executable);

export const chromiumSkipReason: string | undefined =
  chromiumPath === undefined ? 'no Chromium: set CHROMIUM_PATH or install it (apt-get install chromium)' : undefined;

if (chromiumSkipReason !== undefined && process.env.CI === 'true') {
  throw new Error(`CI=true but ${chromiumSkipReason}`);
}

/** Git-ignored folder for screenshots people can look at. */
export function screenshotDir(): string {
  const dir = fileURLToPath(new URL('../../screenshots/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface ConsoleOptions {
  viewport: { width: number; height: number };
  /** The browser's time zone (IANA); the machine's when left out. */
  timezoneId?: string;
  /** How long a page action or wait may take (Playwright's default timeout). */
  timeoutMs: number;
  /** Settings for the app beyond PORT and LOG_LEVEL (e.g. PROGRESS_PASS=off: the demo's seed only). */
  env?: Record<string, string>;
}

/** The app under `npm start`'s entry (src/main.ts) with nothing configured, its local console open in headless Chromium. */
export interface OpenConsole {
  main: MainProcess;
  page: Page;
  /** Where the console is served: http://localhost:PORT (no trailing slash). */
  origin: string;
  /** Closes the browser, then stops the app with SIGTERM and waits for it to exit. */
  close(): Promise<void>;
}

/**
 * Starts the app (PORT 0, warnings and worse logged), waits for the line that gives the console's
 * address, and opens the page there once its "You are" list is filled.
 */
export async function openConsole(options: ConsoleOptions): Promise<OpenConsole> {
  const main = runMain({ ...options.env, PORT: '0', LOG_LEVEL: 'warn' });
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    main.child.kill('SIGTERM');
    await main.exited;
  };
  try {
    const [, port] = await main.waitFor(/Local console \(plays Slack in your browser\): http:\/\/localhost:(\d+)\//);
    const origin = `http://localhost:${port}`;
    browser = await chromium.launch({ executablePath: chromiumPath ?? 'chromium', args: ['--no-sandbox'] });
    const context = await browser.newContext({
      viewport: options.viewport,
      ...(options.timezoneId !== undefined ? { timezoneId: options.timezoneId } : {}),
    });
    const page = await context.newPage();
    page.setDefaultTimeout(options.timeoutMs);
    await page.goto(`${origin}/`);
    await page.locator('#who option').first().waitFor({ state: 'attached' });
    return { main, page, origin, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Types `text` into the console's message box and sends it with Enter. */
export async function sendInConsole(page: Page, text: string): Promise<void> {
  await page.locator('#box').fill(text);
  await page.locator('#box').press('Enter');
}

/** The last message in the channel or DM the console shows. */
export function lastMessageIn(page: Page): Locator {
  return page.locator('#messages article').last();
}
