/**
 * The console page's libraries are development dependencies: an install without them must leave the
 * local demo running, with a sentence that names what is missing and the fix (src/main.ts prints it).
 */
import { describe, expect, it } from 'vitest';
import { CONSOLE_LIBRARIES, missingConsoleLibraries } from '../../../local/console/server.js';

/** Resolves like Node does for an installed package, and fails like it for one that is not there. */
const installOnly = (present: string[]) => (name: string) => {
  if (present.includes(name)) return `file:///app/node_modules/${name}/index.js`;
  throw Object.assign(new Error(`Cannot find package '${name}'`), { code: 'ERR_MODULE_NOT_FOUND' });
};

describe('the local console libraries', () => {
  it('are found in this install (npm ci installs development dependencies)', () => {
    expect(missingConsoleLibraries()).toBeUndefined();
  });

  it('when left out, names each missing one and says how to get them or run without the console', () => {
    const problem = missingConsoleLibraries(installOnly([]));
    expect(problem).toContain('slack-message-parser and gemoji');
    expect(problem).toContain('npm ci');
    expect(problem).toContain('CONSOLE=0');
    expect(missingConsoleLibraries(installOnly(['slack-message-parser']))).toMatch(/needs gemoji,/);
    expect(missingConsoleLibraries(installOnly([...CONSOLE_LIBRARIES]))).toBeUndefined();
  });
});
