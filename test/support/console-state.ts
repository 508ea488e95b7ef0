/** The local console's state as its page gets it (/console/events), for tests at the console's HTTP boundary. */

export interface ConsoleMessage {
  channel: string;
  ephemeralFor?: string;
  text?: string;
  blocks?: unknown[];
}

/** The console's first state for `user`: what the page would draw (messages per channel included). */
export async function consoleState(base: string, user: string): Promise<{ messages: ConsoleMessage[] }> {
  const res = await fetch(`${base}console/events?user=${user}`);
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no event stream');
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      const m = /event: state\ndata: (.*)\n\n/.exec(text);
      if (m?.[1]) return JSON.parse(m[1]) as { messages: ConsoleMessage[] };
    }
  } finally {
    await reader.cancel();
  }
  throw new Error('the event stream ended without a state');
}
