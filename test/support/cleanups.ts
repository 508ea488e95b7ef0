/** What each test of a file leaves to close (databases, apps), closed after it, newest first. */
import { afterEach } from 'vitest';

export function cleanupsAfterEach(): (() => Promise<void>)[] {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of cleanups.splice(0).reverse()) await close();
  });
  return cleanups;
}
