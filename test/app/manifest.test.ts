/**
 * manifest.yml is valid for Slack (v1 schema, vendored in test/fixtures/slack/manifest.schema.json) and lists exactly
 * the scopes the code needs: every Web API method called in src/ is covered, no scope is unused.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONSOLE_SHORTCUTS } from '../../local/console/demo.js';
import { SUBCOMMANDS, USAGE_HINT_MAX, usageHint } from '../../src/app/commands/index.js';
import { CallbackId, RequestCallbackId } from '../../src/kernel/blocks/ids.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = parse(readFileSync(join(root, 'manifest.yml'), 'utf8')) as {
  display_information: { name: string };
  features: {
    slash_commands: { command: string; should_escape?: boolean; usage_hint?: string; description: string }[];
    shortcuts?: { callback_id: string; type: string; name: string }[];
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: Record<string, unknown> & { event_subscriptions: { bot_events: string[] } };
};

/** platform.md sections 6.3 and 7; null: needs no scope. Extend when the code calls a new method. */
const SCOPE_OF: Record<string, string | null> = {
  'auth.test': null,
  'chat.postMessage': 'chat:write',
  'chat.postEphemeral': 'chat:write',
  'chat.update': 'chat:write',
  'chat.delete': 'chat:write',
  'conversations.open': 'im:write',
  'files.uploadV2': 'files:write',
  // The upload's steps, called one by one so the file can be streamed with its length.
  'files.getUploadURLExternal': 'files:write',
  'files.completeUploadExternal': 'files:write',
  'usergroups.list': 'usergroups:read',
  'usergroups.users.list': 'usergroups:read',
  'users.info': 'users:read',
  'users.list': 'users:read',
  'users.lookupByEmail': 'users:read.email',
  'views.open': null,
  'views.update': null,
  'views.push': null,
  'views.publish': null,
  // The Workflow Builder step completes (workflow-steps facts in docs/course-requests.md).
  'functions.completeSuccess': null,
  'functions.completeError': null,
};

const sources = readdirSync(join(root, 'src'), { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts'))
  .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
const code = sources.join('\n');

function calledMethods(): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/\bclient\.((?:[a-zA-Z]+\.)+[a-zA-Z]+)\(/g)) found.add(m[1] ?? '');
  if (/\bclient\.filesUploadV2\(/.test(code)) found.add('files.uploadV2');
  return [...found].sort();
}

function neededScopes(): string[] {
  const needed = new Set<string>();
  for (const method of calledMethods()) {
    const scope = SCOPE_OF[method];
    if (scope) needed.add(scope);
  }
  if (/\bapp\.command\(/.test(code)) needed.add('commands');
  // users.info returns profile.email only with users:read.email.
  if (/profile\??\.email/.test(code)) needed.add('users:read.email');
  // The Slackbot tools' endpoint (docs/slackbot.md): Slackbot connects to an MCP server only with it.
  if (/\bMCP_PATH\b/.test(code)) needed.add('mcp:connect');
  return [...needed].sort();
}

describe('manifest.yml', () => {
  it("validates against Slack's manifest schema", () => {
    const schema = JSON.parse(readFileSync(join(root, 'test/fixtures/slack/manifest.schema.json'), 'utf8')) as object;
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    const validate = ajv.compile(schema);
    expect(validate(manifest), ajv.errorsText(validate.errors)).toBe(true);
    // The schema bites: app_home has no messages_tab key (docs/platform.md section 6.2).
    const wrong = structuredClone(manifest) as { features: { app_home?: Record<string, unknown> } };
    wrong.features.app_home = { ...wrong.features.app_home, messages_tab: true };
    expect(validate(wrong)).toBe(false);
    // HTTP mode, as the header comment tells: the four URLs, the Options Load URL of the pool menus'
    // type-ahead among them, are keys the schema knows.
    const http = structuredClone(manifest) as typeof manifest & {
      features: { slash_commands: Record<string, unknown>[] };
      settings: { interactivity: Record<string, unknown>; event_subscriptions: Record<string, unknown> };
    };
    const url = 'https://desk.example.com/slack/events';
    http.settings.socket_mode_enabled = false;
    http.settings.interactivity = { ...http.settings.interactivity, request_url: url, message_menu_options_url: url };
    http.settings.event_subscriptions.request_url = url;
    for (const c of http.features.slash_commands) c.url = url;
    expect(validate(http), ajv.errorsText(validate.errors)).toBe(true);
    http.settings.interactivity.options_load_url = url;
    expect(validate(http)).toBe(false);
  });

  it('declares the Slackbot tools as an MCP server with Slack identity auth at /mcp, over HTTPS', () => {
    const m = manifest as unknown as { mcp_servers?: Record<string, { url: string; auth_type: string }> };
    const servers = Object.values(m.mcp_servers ?? {});
    expect(servers).toHaveLength(1);
    expect(servers[0]?.auth_type).toBe('slack_identity_auth');
    expect(servers[0]?.url).toMatch(/^https:\/\/[^/]+\/mcp$/);
    expect(manifest.oauth_config.scopes.bot).toContain('mcp:connect');
  });

  it('declares License Desk, /licenses with escaping, Socket Mode, interactivity and App Home', () => {
    expect(manifest.display_information.name).toBe('License Desk');
    const [command] = manifest.features.slash_commands;
    expect(command).toMatchObject({ command: '/licenses', should_escape: true });
    expect(command?.usage_hint).toBeTruthy();
    expect(manifest.settings).toMatchObject({ socket_mode_enabled: true, interactivity: { is_enabled: true } });
    expect(manifest.settings.event_subscriptions.bot_events).toContain('app_home_opened');
  });

  it('knows a scope for every Web API method the code calls', () => {
    const unknown = calledMethods().filter((m) => !(m in SCOPE_OF));
    expect(unknown, 'add these methods to SCOPE_OF (platform.md section 6.3)').toEqual([]);
    expect(calledMethods()).toContain('users.info');
  });

  it('lists exactly the scopes the code needs', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual(neededScopes());
  });

  it('declares the Workflow Builder step the code handles, on the remote function runtime', () => {
    const m = manifest as unknown as {
      functions?: Record<
        string,
        { input_parameters: Record<string, { is_required?: boolean }>; output_parameters: Record<string, unknown> }
      >;
      settings: {
        function_runtime?: string;
        org_deploy_enabled?: boolean;
        event_subscriptions: { bot_events: string[] };
      };
    };
    const step = m.functions?.[RequestCallbackId.workflowStep];
    expect(Object.keys(m.functions ?? {})).toEqual([RequestCallbackId.workflowStep]);
    expect(step?.input_parameters.requester?.is_required).toBe(true);
    expect(step?.input_parameters.pool_id?.is_required).toBe(true);
    expect(step?.input_parameters.reason?.is_required).toBe(false);
    expect(Object.keys(step?.output_parameters ?? {}).sort()).toEqual(['end_date', 'license_id', 'status']);
    expect(m.settings).toMatchObject({ function_runtime: 'remote', org_deploy_enabled: true });
    expect(m.settings.event_subscriptions.bot_events).toContain('function_executed');
  });

  describe('the table of subcommands is what the manifest offers', () => {
    it('the usage hint names the everyday subcommands of the table with their usage, short, and points to help', () => {
      expect(SUBCOMMANDS.map((s) => s.name)).toEqual(expect.arrayContaining(['pools', 'find', 'assign', 'expiring']));
      const hint = manifest.features.slash_commands[0]?.usage_hint ?? '';
      expect(hint).toBe(usageHint());
      expect(hint).toContain('| expiring [days] |');
      expect(hint).toContain('every command: /licenses help');
      expect(Array.from(hint).length).toBeLessThanOrEqual(USAGE_HINT_MAX);
    });

    it('the global shortcut is the one the code listens for', () => {
      expect(manifest.features.shortcuts?.map((s) => s.callback_id)).toEqual([
        CallbackId.assignShortcut,
        RequestCallbackId.shortcut,
      ]);
      // The local console's shortcut menu offers the same, by the same names.
      expect(CONSOLE_SHORTCUTS).toEqual(
        manifest.features.shortcuts?.map((s) => ({ callbackId: s.callback_id, name: s.name })),
      );
    });
  });
});
