/**
 * Global setup of the `processes` project (vitest.config.ts): builds dist/ once before its files run,
 * as `npm start` does, so that each test's app process starts from the bundle production runs
 * (run-main.ts) instead of compiling src/ again through tsx: some 1 s of CPU a start instead of 3 to 4.
 */
import { buildDist } from './run-main.js';

export default async function setup(): Promise<void> {
  const code = await buildDist();
  if (code !== 0) throw new Error(`the build of dist/ (node scripts/bootstrap.mjs build) exited with ${code}`);
}
