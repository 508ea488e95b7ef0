/**
 * The project's shared/ folder (Slack's manifest schema and payload fixtures) stands beside the
 * checkout: ../shared. CI always has it there; a clone on its own does not, and then the tests that
 * read it are skipped with this reason, except under CI=true, where they fail rather than hide.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const sharedDir = fileURLToPath(new URL('../../../shared/', import.meta.url));

const present = existsSync(`${sharedDir}slack/manifest.schema.json`);

/** True when the tests that read shared/ must be skipped (never under CI). */
export const skipWithoutShared = !present && process.env.CI !== 'true';

if (skipWithoutShared) {
  console.warn(`skipping the tests that read ${sharedDir}: shared/ is not beside this checkout`);
}

export function sharedPath(relative: string): string {
  return `${sharedDir}${relative}`;
}
