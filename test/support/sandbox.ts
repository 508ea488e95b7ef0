/**
 * Small helpers for tests that drive the licensing sandbox over real HTTP (global fetch).
 * `withSandbox` starts one on 127.0.0.1:0 and always closes it; `callSandbox` sends one request.
 */
import { startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox, SandboxOptions } from '../../local/sandbox/types.js';

export async function withSandbox<T>(opts: SandboxOptions, fn: (sandbox: RunningSandbox) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ port: 0, ...opts });
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

export interface CallOptions {
  /** Bearer token; defaults to the admin token; null sends no Authorization header. */
  token?: string | null;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (for malformed bodies). */
  rawBody?: string;
  signal?: AbortSignal;
}

export interface SandboxAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export async function callSandbox(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<SandboxAnswer> {
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? sandbox.adminToken : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = body;
  if (opts.signal) init.signal = opts.signal;
  const response = await fetch(`${sandbox.url}${path}`, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
