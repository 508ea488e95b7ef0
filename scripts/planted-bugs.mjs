/**
 * npm run check:planted — does the suite still catch real bugs? Plants each bug below, one at a time,
 * in a scratch copy of the committed tree (a detached git worktree sharing this node_modules), runs the
 * tests that should notice it, and prints whether they did. Nothing in this checkout changes.
 *
 *   npm run check:planted            # every bug
 *   npm run check:planted -- signing # the bugs whose name contains "signing"
 *
 * Exit status 1 when a planted bug went unnoticed (or a plant no longer applies: the code it targets
 * moved, and the list must follow). A minute or two per bug on 2 cores.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Each: where, the exact text replaced (every occurrence in the file), by what, and the tests that must fail because of it. */
const BUGS = [
  {
    name: 'signing: a request with a wrong signature is let through',
    file: 'src/kernel/slack/http-receiver.ts',
    find: "return 'The request signature does not match: check SLACK_SIGNING_SECRET.';",
    replace: 'return undefined;',
    tests: ['test/unit/slack/signing.test.ts', 'test/app/app.test.ts'],
  },
  {
    name: 'secrets: the log writes tokens and e-mails as they are',
    file: 'src/kernel/slack/logger.ts',
    find: 'write(maskEmailsIn(redact(line)));',
    replace: 'write(line);',
    tests: ['test/app/log-hygiene.test.ts', 'test/unit/privacy.test.ts'],
  },
  {
    name: 'privacy: replies to a command go to the whole channel',
    file: 'src/kernel/slack/reply.ts',
    find: "response_type: 'ephemeral' as const",
    replace: "response_type: 'in_channel' as const",
    tests: ['test/app/commands.test.ts'],
  },
  {
    name: 'end date: a date after the pool ends is accepted',
    file: 'src/kernel/domain/end-date.ts',
    find: "if (poolEnd !== '' && day > poolEnd) return { kind: 'after-pool-end', poolEnd };",
    replace: '',
    tests: ['test/unit/domain/end-date.test.ts'],
  },
  {
    name: 'roles: a viewer may change licenses',
    file: 'src/kernel/slack/roles.ts',
    find: "return (await listed(client, options.viewers, userId)) ? 'viewer' : 'none';",
    replace: "return (await listed(client, options.viewers, userId)) ? 'admin' : 'none';",
    tests: ['test/app/safety.test.ts', 'test/app/refusal-words.test.ts'],
  },
  {
    name: 'pacing: a request gives its slot back at once (bursts past 25 a minute)',
    file: 'src/kernel/licensing/limiter/limiter-bottleneck.ts',
    find: 'const holdMs = opts.windowMs + opts.marginMs;',
    replace: 'const holdMs = 0;',
    tests: ['test/slow/licensing/limiter.test.ts'],
  },
  {
    name: 'told once: a message sent is never marked sent (sent again)',
    file: 'src/kernel/services/outbox.ts',
    find: ".set({ state: 'sent', sent_at: iso() })",
    replace: ".set({ state: 'pending', sent_at: iso() })",
    tests: ['test/stores/services/intents-outbox.test.ts'],
  },
  {
    name: 'told at last: a DM Slack refused is swallowed (the outbox marks it sent, nobody is told)',
    file: 'src/requests/slack/notice-sender.ts',
    find: 'const res = await client.chat.postMessage({ channel, ...marked(message) });',
    replace:
      'const res = await client.chat.postMessage({ channel, ...marked(message) }).catch(() => ({ ts: undefined }));',
    tests: ['test/app/notice-retries.test.ts'],
  },
];

const only = process.argv[2];
const chosen = BUGS.filter((b) => !only || b.name.includes(only));
const git = (args, cwd = ROOT) => spawnSync('git', args, { cwd, encoding: 'utf8' });

const scratch = join(mkdtempSync(join(tmpdir(), 'license-desk-planted-')), 'tree');
if (git(['worktree', 'add', '--detach', scratch, 'HEAD']).status !== 0) {
  console.error('could not make a scratch worktree (git worktree add)');
  process.exit(2);
}
symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'));

const results = [];
try {
  for (const bug of chosen) {
    const path = join(scratch, bug.file);
    const before = readFileSync(path, 'utf8');
    if (!before.includes(bug.find)) {
      results.push({ bug, verdict: 'NOT PLANTED (the code moved: update scripts/planted-bugs.mjs)' });
      continue;
    }
    writeFileSync(path, before.split(bug.find).join(bug.replace));
    const started = Date.now();
    const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...bug.tests, '--reporter=dot'], {
      cwd: scratch,
      encoding: 'utf8',
      env: { ...process.env, CI: '' },
    });
    writeFileSync(path, before);
    const failed = /(\d+) failed/.exec(run.stdout)?.[1];
    results.push({
      bug,
      verdict: run.status !== 0 ? `caught (${failed ?? 'some'} failing)` : 'MISSED',
      seconds: Math.round((Date.now() - started) / 1000),
    });
    console.log(`${results.at(-1).verdict.padEnd(22)} ${bug.name}`);
  }
} finally {
  git(['worktree', 'remove', '--force', scratch]);
  rmSync(join(scratch, '..'), { recursive: true, force: true });
}

console.log('\nplanted bug | verdict | tests run | s');
for (const r of results) console.log(`${r.bug.name} | ${r.verdict} | ${r.bug.tests.join(', ')} | ${r.seconds ?? '-'}`);
process.exit(results.every((r) => r.verdict.startsWith('caught')) ? 0 : 1);
