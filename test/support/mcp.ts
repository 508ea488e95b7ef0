/**
 * Slackbot as the tests play it (docs/slackbot.md): the official MCP SDK client over Streamable HTTP to
 * a test app's POST /mcp, each request signed as Slack signs it, each tool call carrying the caller
 * in `_meta.slack`; and raw posts for the refusals a client would never send.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { LOCAL_TEAM } from '../../local/slack/local-slack.js';
import type { TestApp } from './app-harness.js';
import { slackHeaders } from './slack-signing.js';

export const MCP_TEAM = LOCAL_TEAM.id;
export const ACCEPT = 'application/json, text/event-stream';

export interface McpCaller {
  list(): Promise<Tool[]>;
  call(name: string, args?: Record<string, unknown>, user?: string): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Signs every request over its exact body, as Slack does; `signed: false` sends none of the headers. */
export function signingFetch(secret: string, signed = true): typeof fetch {
  return (input, init = {}) => {
    const body = typeof init.body === 'string' ? init.body : '';
    const headers = new Headers(init.headers);
    if (signed) {
      for (const [k, v] of Object.entries(slackHeaders(secret, body, { contentType: 'application/json' })))
        headers.set(k, v);
    }
    return fetch(input, { ...init, headers });
  };
}

/** An SDK client connected to `t`'s /mcp, calling tools as `user` of the installed workspace. */
export async function mcpAs(t: TestApp, user: string, opts: { signed?: boolean } = {}): Promise<McpCaller> {
  const client = new Client({ name: 'slackbot-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
    fetch: signingFetch(t.signingSecret, opts.signed ?? true),
  });
  await client.connect(transport);
  return {
    list: async () => (await client.listTools()).tools,
    call: async (name, args = {}, who = user) =>
      (await client.callTool({
        name,
        arguments: args,
        _meta: { slack: { user_id: who, team_id: MCP_TEAM } },
      })) as CallToolResult,
    close: () => client.close(),
  };
}

/** A raw POST (or another method) to /mcp, signed unless told otherwise. */
export async function postMcp(
  t: TestApp,
  body: string,
  opts: { method?: string; signed?: boolean; timestamp?: number; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: unknown }> {
  const signed = opts.signed ?? true;
  const headers: Record<string, string> = {
    accept: ACCEPT,
    ...(signed
      ? slackHeaders(t.signingSecret, body, {
          contentType: 'application/json',
          ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
        })
      : { 'Content-Type': 'application/json' }),
    ...opts.headers,
  };
  const method = opts.method ?? 'POST';
  const res = await fetch(`${t.url}/mcp`, { method, headers, ...(method === 'POST' ? { body } : {}) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

export const toolCall = (name: string, args: Record<string, unknown>, slack?: Record<string, unknown>): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args, ...(slack ? { _meta: { slack } } : {}) },
  });

export const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
