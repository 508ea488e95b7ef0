/** Types of scripts/bootstrap.mjs for the tests that import it (the script itself stays plain JavaScript). */
export type InstallState = 'missing' | 'stale' | 'current';
export function installState(root?: string): InstallState;
export function buildState(root?: string): { hash: string; current: boolean };
export function ensureInstalled(root?: string): boolean;
export function ensureBuilt(root?: string): boolean;
