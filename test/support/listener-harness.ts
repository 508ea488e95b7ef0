/**
 * The app's listeners without a process or an HTTP server: the same composition as
 * test/support/app-harness.ts (createApp with its real listeners, the licensing client against the
 * sandbox on loopback, the fake Slack Web API recording every call and response_url post), with each
 * payload handed to Bolt's `app.processEvent` the way its receiver would, after the signature check.
 * A request resolves once its listeners have run to their end, so what the person sees is there to
 * assert at once. The signed-HTTP tests (test/app) keep what this skips: signing, acks over HTTP, the
 * receiver's guard and a real process.
 *
 *   const t = await startListenerApp();
 *   const r = await t.command('pools');
 *   const reply = r.responses().at(-1);         // or: await r.waitForResponse(...)
 *   t.slack.calls                               // every Slack Web API call
 *   t.sandbox.requests                          // every licensing API call
 *   await t.close();
 */

import { startTestApp, type TestApp, type TestAppOptions } from './app-harness.js';
import type { ResponseUrlPost } from './fake-slack.js';
import { allText, buttons } from './fixtures.js';

export { TEST_USERS } from './app-harness.js';

export function startListenerApp(options: Omit<TestAppOptions, 'transport'> = {}): Promise<TestApp> {
  return startTestApp({ ...options, transport: 'direct' });
}

/** What a person sees in one reply: its words (text and every block's), and its buttons' action ids. */
export function seen(post: ResponseUrlPost | { body: Record<string, unknown> } | Record<string, unknown>): {
  text: string;
  buttons: string[];
} {
  const body = ('body' in post ? post.body : post) as Record<string, unknown>;
  return { text: allText(body), buttons: buttons(body).map((b) => b.action_id) };
}
