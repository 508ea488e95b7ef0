/**
 * `npm run sandbox`: the sandbox alone, configured from the environment (the only place in
 * local/sandbox that reads process.env). Prints its base URL and both tokens once, at start.
 */

import { readSandboxEnv } from './cli-env.js';
import { startSandbox } from './index.js';

async function main(): Promise<void> {
  const options = readSandboxEnv(process.env);
  const sandbox = await startSandbox(options);
  const limit = options.rateLimit === false || options.rateLimit === undefined ? undefined : options.rateLimit;
  // Printing the tokens once is the point of this command: the developer copies them into .env.
  process.stdout.write(
    [
      `Licensing sandbox listening on ${sandbox.url}`,
      `  LICENSING_API_URL=${sandbox.url}`,
      `  admin token:     ${sandbox.adminToken}`,
      `  read-only token: ${sandbox.readOnlyToken}`,
      `  rate limit: ${limit ? `${limit.limit} per ${limit.windowMs} ms (${limit.algorithm}, Retry-After ${limit.retryAfter ? 'on' : 'off'})` : 'off'}`,
      `  data: ${typeof options.seed === 'object' && 'scale' in options.seed ? `scale (${options.seed.scale.pools} pools, ${options.seed.scale.licenses} licenses)` : options.seed}`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  const stop = (signal: NodeJS.Signals): void => {
    process.stdout.write(`Received ${signal}, stopping the sandbox.\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`The sandbox could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
