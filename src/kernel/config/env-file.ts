/**
 * `.env` in the working directory, loaded into the environment before the configuration is read (Node's
 * own process.loadEnvFile: no dependency). Variables already in the environment win, even when empty:
 * that is what loadEnvFile does, and it is enforced here as well so no Node version can change it.
 * Only names are ever reported, never values (the file holds tokens).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

export type EnvFileResult =
  | { loaded: false; path: string }
  | {
      loaded: true;
      path: string;
      /** Names the file set. */
      applied: string[];
      /** Names the file also gives but the environment already had: the environment's values were kept. */
      kept: string[];
    }
  | { loaded: false; path: string; problem: string };

export function loadEnvFile(
  path = '.env',
  env: NodeJS.ProcessEnv = process.env,
  load: (path: string) => void = (p) => process.loadEnvFile(p),
): EnvFileResult {
  const full = resolve(path);
  if (!existsSync(full)) return { loaded: false, path: full };
  try {
    const names = Object.keys(parseEnv(readFileSync(full, 'utf8')));
    const before = new Map(names.filter((n) => env[n] !== undefined).map((n) => [n, env[n]]));
    load(full);
    for (const [name, value] of before) env[name] = value;
    return { loaded: true, path: full, applied: names.filter((n) => !before.has(n)), kept: [...before.keys()] };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code ?? (error instanceof Error ? error.message : String(error));
    return { loaded: false, path: full, problem: `Could not read ${full} (${reason}): fix or remove it.` };
  }
}

/** One line for the log or the terminal: which file, which names; never a value. */
export function describeEnvFile(result: Extract<EnvFileResult, { applied: string[] }>): {
  message: string;
  fields: Record<string, unknown>;
} {
  return {
    message: 'settings loaded from .env (variables already in the environment win)',
    fields: { file: result.path, set: result.applied, keptFromEnvironment: result.kept },
  };
}
