/**
 * Whether the licensing service at a base URL says it is a sandbox: every answer of the sandbox
 * carries `x-licensing-sandbox: 1` (docs/licensing-api.md). One GET of /v1/me without a token, outside
 * the rate limiter: no token reaches the service before it has proven what it is, no rate budget is
 * spent, and any answer will do (a 401 included) as long as it carries the header.
 */
import { request } from 'undici';
import { SANDBOX_HEADER } from './request.js';

export type SandboxProbe = 'sandbox' | 'not a sandbox' | 'unreachable';

export async function probeSandbox(baseUrl: string, timeoutMs: number): Promise<SandboxProbe> {
  try {
    const res = await request(`${baseUrl.replace(/\/+$/, '')}/v1/me`, {
      method: 'GET',
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.dump();
    return res.headers[SANDBOX_HEADER] === '1' ? 'sandbox' : 'not a sandbox';
  } catch {
    return 'unreachable';
  }
}
