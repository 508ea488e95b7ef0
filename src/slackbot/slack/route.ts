/**
 * POST /mcp on the app's HTTP port (docs/slackbot.md): the endpoint Slackbot calls with "Slack identity
 * auth". Stateless: a new MCP server and a new Streamable HTTP transport (JSON answers) per request.
 * Before anything is parsed the request is verified as a Slack request is, by the kernel's receiver
 * guard (kernel/slack/http-receiver.ts `createSignedBodyReader`: timestamp window, size cap, bounded
 * reads, signature). Then the workspace must be the installed one (auth.test), and a tool call must
 * name its caller (`params._meta.slack.user_id`). GET and DELETE get 405.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App, CustomRoute, webApi } from '@slack/bolt';
import type { Logger } from '../../kernel/licensing/types.js';
import { createSignedBodyReader } from '../../kernel/slack/http-receiver.js';
import type { Surface } from '../../kernel/slack/state.js';
import { createProgressStore, DEFAULT_PROGRESS_THRESHOLDS } from '../../progress/index.js';
import { createConfirmations } from '../db/confirmations.js';
import { type SlackbotSettings, USER_ID } from '../domain/settings.js';
import { createConfirmTokens } from '../services/confirm-tokens.js';
import { createCallerGate } from './caller.js';
import { registerChangeTools } from './change-tools.js';
import { registerMoreTimeTool } from './more-time-tool.js';
import { registerReadTools } from './read-tools.js';
import { registerRequestTool } from './request-tool.js';
import type { ToolContext } from './tool-kit.js';

export const MCP_PATH = '/mcp';
/** A tool call is a few hundred bytes; 64 kB leaves room and keeps an unverified body small. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

export interface SlackbotPart {
  settings: SlackbotSettings;
  /** POST /mcp (and its 405s), when SLACKBOT_MCP is on; none otherwise. */
  routes: CustomRoute[];
  /** Gives the route the finished app and listeners' surface (before that it answers 503). */
  bind(app: App, surface: Surface): void;
}

interface Team {
  teamId: string;
  enterpriseId?: string;
}

function sendRpcError(res: ServerResponse, status: number, code: number, message: string, headers = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

type SlackMeta = { user_id?: unknown; team_id?: unknown; enterprise_id?: unknown };
type Message = { method?: unknown; params?: { _meta?: { slack?: SlackMeta } } & Record<string, unknown> };

/** The caller's workspace and person, checked: undefined when fine, else the refusal's status and words. */
function identityProblem(message: Message, team: Team): { status: number; code: number; text: string } | undefined {
  const slack = message.params?._meta?.slack;
  const teamId = slack?.team_id;
  const ours =
    teamId === team.teamId || (team.enterpriseId !== undefined && slack?.enterprise_id === team.enterpriseId);
  if (teamId !== undefined && !ours) {
    return {
      status: 403,
      code: -32600,
      text: 'This request comes from a Slack workspace License Desk is not installed in.',
    };
  }
  if (message.method !== 'tools/call') return undefined;
  if (typeof slack?.user_id !== 'string' || !USER_ID.test(slack.user_id) || teamId === undefined) {
    return {
      status: 400,
      code: -32602,
      text: "A tool call must carry the caller's Slack user and workspace (params._meta.slack.user_id and team_id).",
    };
  }
  return undefined;
}

/** The unsigned test identity takes the place of whatever the call says about its caller. */
function asTestIdentity(message: Message, userId: string, team: Team): void {
  if (message.method !== 'tools/call' || !message.params) return;
  message.params._meta = { ...message.params._meta, slack: { user_id: userId, team_id: team.teamId } };
}

export function createSlackbot(
  settings: SlackbotSettings,
  opts: { signingSecret: string; logger: Logger },
): SlackbotPart {
  let bound: { app: App; surface: Surface; ctx: ToolContext } | undefined;
  let team: Promise<Team> | undefined;
  const identity = settings.unsignedTestIdentity;
  const read = createSignedBodyReader({
    signingSecret: opts.signingSecret,
    maxBytes: MCP_MAX_BODY_BYTES,
    logger: opts.logger,
    allowUnsigned: identity !== undefined,
  });
  const teamOf = (client: webApi.WebClient): Promise<Team> => {
    team ??= client.auth.test().then(
      (a) => ({ teamId: String(a.team_id), ...(a.enterprise_id ? { enterpriseId: String(a.enterprise_id) } : {}) }),
      (error: unknown) => {
        team = undefined;
        throw error;
      },
    );
    return team;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST')
      return sendRpcError(res, 405, -32000, 'Method not allowed: POST only.', { allow: 'POST' });
    const b = bound;
    if (!b) return sendRpcError(res, 503, -32000, 'License Desk is starting; try again in a moment.');
    if (b.surface.state.work.draining)
      return sendRpcError(res, 503, -32000, 'License Desk is restarting; try again in a moment.');
    const body = await read(req);
    if (body === 'gone') return;
    if (!body.ok)
      return sendRpcError(res, body.status, -32600, body.status === 401 ? 'Invalid request' : body.text, body.headers);
    if (!body.signed && !LOOPBACK.has(req.socket.remoteAddress ?? ''))
      return sendRpcError(res, 401, -32600, 'Invalid request');
    let message: Message;
    try {
      message = JSON.parse(body.body) as Message;
    } catch {
      return sendRpcError(res, 400, -32700, 'Parse error: the body is not JSON.');
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return sendRpcError(res, 400, -32600, 'One JSON-RPC request is expected (no batches).');
    }
    let ours: Team;
    try {
      ours = await teamOf(b.app.client);
    } catch {
      return sendRpcError(res, 503, -32000, 'License Desk could not ask Slack which workspace it is in; try again.');
    }
    if (!body.signed && identity) asTestIdentity(message, identity, ours);
    const problem = identityProblem(message, ours);
    if (problem) return sendRpcError(res, problem.status, problem.code, problem.text);
    await b.surface.state.work.run('request', 'slackbot tool call', () => serve(b.ctx, req, res, message));
  }

  return {
    settings,
    routes: settings.on
      ? [
          {
            path: MCP_PATH,
            method: ['POST', 'GET', 'DELETE'],
            handler: (req, res) => {
              handle(req, res).catch((error: unknown) => {
                opts.logger.error('the MCP endpoint failed', { error: String(error) });
                sendRpcError(res, 500, -32603, 'Internal error');
              });
            },
          },
        ]
      : [],
    bind(app, surface) {
      const records = surface.deps.records;
      const sources = {
        licensing: surface.deps.licensing,
        ...(records ? { db: records.db } : {}),
        now: surface.deps.now,
        thresholds: surface.deps.progress?.thresholds ?? DEFAULT_PROGRESS_THRESHOLDS,
      };
      bound = {
        app,
        surface,
        ctx: {
          s: surface,
          client: app.client,
          gate: createCallerGate(surface, app.client),
          sources: withFeatures(sources, surface),
          tokens: createConfirmTokens(opts.signingSecret),
          confirmations: records ? createConfirmations(records.db) : undefined,
        },
      };
    },
  };
}

/** The records the read tools answer from: progress, waitlist and open requests, when they are kept. */
function withFeatures(base: ToolContext['sources'], surface: Surface): ToolContext['sources'] {
  const { deps } = surface;
  return {
    ...base,
    ...(deps.records ? { progress: createProgressStore(deps.records) } : {}),
    ...(deps.waitlist ? { waitlist: deps.waitlist } : {}),
    ...(deps.requests ? { openRequests: () => deps.requests?.store.byStatus('pending') ?? Promise.resolve([]) } : {}),
  };
}

async function serve(ctx: ToolContext, req: IncomingMessage, res: ServerResponse, message: Message): Promise<void> {
  const [{ McpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  const server = new McpServer({ name: 'license-desk', version: '1.0.0' }, { capabilities: { tools: {} } });
  registerReadTools(server, ctx);
  registerChangeTools(server, ctx);
  registerRequestTool(server, ctx);
  registerMoreTimeTool(server, ctx);
  // No sessionIdGenerator: stateless (each request stands alone); answers as plain JSON, not SSE.
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
  const closed = new Promise<void>((resolve) => res.on('close', resolve));
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, message);
  await closed;
}
