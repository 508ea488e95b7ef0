/**
 * The table of `/licenses` subcommands, in help order. Adding a subcommand is one module here and one
 * line in SUBCOMMANDS: the slash command, help, navigation buttons (entries with a `view`), README's
 * command table and manifest.yml's usage hint (both checked against this table) follow from it.
 */

import { approvals } from '../../approvals/index.js';
import { courses, expiring, find, list, me, pool, pools, show, students } from '../../browse/index.js';
import { bulk } from '../../bulk/index.js';
import { assignCommand as assign, extend, revokeCommand as revoke } from '../../changes/index.js';
import { digest } from '../../digest/index.js';
import { exportCsv } from '../../export/index.js';
import { history } from '../../history/index.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import type { NavTarget, NavView } from '../../kernel/blocks/nav.js';
import {
  type Bound,
  isProblem,
  type NavBound,
  type NavSubcommand,
  type Problem,
  problem,
  type TableEntry,
  tableEntry,
} from '../../kernel/slack/command-types.js';
import { MAX_TEXT, normalize, quote } from '../../kernel/slack/command-words.js';
import { mine } from '../../learners/index.js';
import { reclaim } from '../../reclaim/index.js';
import { request, requests, waitlist } from '../../requests/index.js';
import { roles } from '../../roles/index.js';
import { helpEntry } from './help.js';
import { buildHelpMessage, buildRequesterHelpMessage } from './help-blocks.js';

const help = helpEntry(() => SUBCOMMANDS);

export const SUBCOMMANDS: readonly TableEntry[] = [
  tableEntry(help),
  tableEntry(pools),
  tableEntry(pool),
  tableEntry(list),
  tableEntry(expiring),
  tableEntry(show),
  tableEntry(find),
  tableEntry(students),
  tableEntry(courses),
  tableEntry(me),
  tableEntry(digest),
  tableEntry(exportCsv),
  tableEntry(history),
  tableEntry(waitlist),
  tableEntry(assign),
  tableEntry(extend),
  tableEntry(revoke),
  tableEntry(bulk),
  tableEntry(reclaim),
  tableEntry(request),
  tableEntry(requests),
  tableEntry(approvals),
  tableEntry(mine),
  tableEntry(roles),
];

/** The reads navigation buttons lead to, one per view (the compiler checks that every view has one). */
const BY_VIEW = { pools, pool, list, expiring, students, courses, show, history } satisfies {
  [V in NavView]: NavSubcommand<V>;
};

/** The subcommands the usage hint names: the everyday ones; help lists every one. */
const HINTED: readonly string[] = ['help', 'pools', 'pool', 'expiring', 'show', 'find', 'request'];
/** Slack shows the hint on one line under the command as it is typed: it stays short. */
export const USAGE_HINT_MAX = 200;

/** The manifest's usage hint for /licenses: the everyday usages, in table order, and where the rest are. */
export function usageHint(): string {
  const shown = SUBCOMMANDS.filter((s) => HINTED.includes(s.name)).map((s) => s.usage);
  return `[${shown.join(' | ')}] · every command: /licenses help`;
}

/** Help for someone the gate let in; `reason`: the one sentence on what was wrong. */
export function helpMessage(canChange: boolean, reason?: string): SlackMessage {
  return buildHelpMessage(SUBCOMMANDS, canChange, reason);
}

/** Help for someone without a role who may ask for a course; `whoToAsk` is mrkdwn (mentions). */
export function requesterHelpMessage(whoToAsk: string, reason?: string): SlackMessage {
  return buildRequesterHelpMessage(SUBCOMMANDS, whoToAsk, reason);
}

/** The entry the first word names and the words after it, or what was wrong. */
function lookUp(text: string): { entry: TableEntry; words: string[] } | Problem {
  if (Array.from(text).length > MAX_TEXT) return problem('That was far longer than any /licenses command.');
  const [first, ...words] = normalize(text);
  const name = first?.toLowerCase() ?? 'help';
  const entry = SUBCOMMANDS.find((s) => s.name === name || s.aliases?.includes(name));
  return entry ? { entry, words: first === undefined ? [] : words } : problem(`I don't know ${quote(first ?? '')}.`);
}

/** `/licenses <text>` -> the entry bound to its arguments, or what was wrong (answered with help). */
export function resolveCommand(text: string): Bound | Problem {
  const found = lookUp(text);
  return isProblem(found) ? found : found.entry.bind(found.words);
}

/** `/licenses <text>` -> which entry, with what arguments (pure; what resolveCommand would run). */
export function parseCommand(text: string): { name: string; args: unknown } | Problem {
  const found = lookUp(text);
  if (isProblem(found)) return found;
  const args = found.entry.parse(found.words);
  return isProblem(args) ? args : { name: found.entry.name, args };
}

/** A navigation button's target -> the same read the command runs. */
export function resolveTarget(target: NavTarget): NavBound {
  // One cast: the record pairs each view with its entry, which TypeScript cannot follow through a lookup.
  const entry = BY_VIEW[target.view] as NavSubcommand<NavView>;
  return { entry, run: (ctx) => entry.run(target, ctx) };
}
