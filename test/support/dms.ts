/**
 * A person's DM with the app in the fake Slack: its channel (the fake answers conversations.open for
 * user U… with D…), the messages posted there, and waiting for one that says something.
 */
import { textOf } from './change-flow.js';
import type { FakeSlack, SlackCall } from './fake-slack.js';

/** The channel of `user`'s DM with the app. */
export const dmChannel = (user: string): string => `D${user.slice(1)}`;

/** Waits for a message in `user`'s DM whose text (`text` of its blocks; textOf by default) includes `words`. */
export function waitForDm(
  slack: FakeSlack,
  user: string,
  words: string,
  opts: { text?: (blocks: unknown) => string; timeoutMs?: number } = {},
): Promise<SlackCall> {
  const text = opts.text ?? textOf;
  return slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === dmChannel(user) && text(c.args.blocks).includes(words),
    opts.timeoutMs,
  );
}
