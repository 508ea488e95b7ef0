/**
 * The process-level policy for errors nothing else caught. Installed by src/main.ts right after the
 * logger exists; every line goes through that logger, so secrets are redacted and e-mails masked.
 *
 * - Unhandled promise rejection: log one structured error line and keep serving. Every request,
 *   click and background job in License Desk awaits its own work and answers its own errors (Bolt's
 *   error handler, the desk's job runner), so a rejection that reaches the process belongs to a
 *   promise nobody was waiting for: its work has already been given up, and the state it touched is
 *   that one request's. Stopping every other person's work for it would be the greater harm.
 * - Uncaught exception: log one structured error line and exit with status 1 for the supervisor
 *   (systemd, Kubernetes, a process manager) to restart the app. A synchronous throw unwound the
 *   stack at an unknown point, possibly half-way through changing state that outlives requests (the
 *   rate limiter's slots, caches, a bulk job's progress), so continuing could break the rate limit
 *   or assign a license twice. What must survive a crash already does: bulk jobs resume from
 *   DATA_DIR without assigning anyone twice, alerts remember what they sent, the audit table is in the database.
 *   No graceful drain is attempted: it would run on that suspect state.
 */
import type { Logger } from '../licensing/types.js';

export interface ProcessErrorPolicyOptions {
  /** How to leave; default process.exit. */
  exit?: (code: number) => void;
}

export function installProcessErrorPolicy(logger: Logger, options: ProcessErrorPolicyOptions = {}): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let exiting = false;
  process.on('unhandledRejection', (reason: unknown) => {
    logger.error('unhandled promise rejection', { error: asError(reason) });
  });
  process.on('uncaughtException', (error: Error, origin: string) => {
    if (exiting) return;
    exiting = true;
    logger.error('uncaught exception: exiting', { error: asError(error), origin });
    // Log lines go to stdout synchronously (a file or a pipe on Linux), so the line is out before this.
    exit(1);
  });
}

function asError(value: unknown): Error {
  if (value instanceof Error) return value;
  const error = new Error(typeof value === 'string' ? value : `non-Error value: ${safeString(value)}`);
  error.name = 'NonError';
  return error;
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 500) ?? String(value);
  } catch {
    return String(value);
  }
}
