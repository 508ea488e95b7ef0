/** Shared setup for the licensing client's integration tests: a sandbox on 127.0.0.1:0 and a client on it. */

import { startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox, SandboxOptions } from '../../local/sandbox/types.js';
import { createLicensingClient, createUnlimitedLimiter } from '../../src/kernel/licensing/index.js';
import type { LicensingClient, LicensingClientOptions } from '../../src/kernel/licensing/types.js';

export interface Harness {
  sandbox: RunningSandbox;
  client: LicensingClient;
  /** Another client on the same sandbox (e.g. with the read-only token); closed with the harness. */
  extraClient(overrides?: Partial<LicensingClientOptions>): LicensingClient;
  /** Requests the sandbox received, as `METHOD /path?query`. */
  calls(): string[];
  close(): Promise<void>;
}

/** Fast retries and short timeouts; no pacing unless a test asks for it (the limiter is tested elsewhere). */
export function clientOptions(sandbox: RunningSandbox, overrides: Partial<LicensingClientOptions> = {}) {
  const options: LicensingClientOptions = {
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    limiter: createUnlimitedLimiter(),
    retry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 200 },
    timeouts: { connectMs: 1_000, headersMs: 2_000, bodyMs: 2_000 },
    ...overrides,
  };
  return options;
}

export async function startHarness(
  sandboxOptions: SandboxOptions = {},
  overrides: Partial<LicensingClientOptions> = {},
): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, rateLimit: false, ...sandboxOptions });
  const client = createLicensingClient(clientOptions(sandbox, overrides));
  const clients = [client];
  return {
    sandbox,
    client,
    extraClient(extra = {}) {
      const client = createLicensingClient(clientOptions(sandbox, { ...overrides, ...extra }));
      clients.push(client);
      return client;
    },
    calls: () => sandbox.requests.map((r) => `${r.method} ${r.url}`),
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await sandbox.close();
    },
  };
}

/** The rejection of a promise that must reject (a resolution fails the test). */
export const caught = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
