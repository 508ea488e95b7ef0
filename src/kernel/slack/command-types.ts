/**
 * One entry of the table of `/licenses` subcommands (index.ts). An entry parses its own words, says
 * what it needs (the gate, src/kernel/slack/gate.ts, decides), and runs: a read calls one service read and
 * one builder; a change reaches the flow that owns it. Help, README's command table and the manifest's
 * usage hint all come from `usage` and `summary`.
 */
import type { webApi } from '@slack/bolt';
import type { NavTargetOf, NavView } from '../blocks/nav.js';
import type { Scope } from '../domain/scope.js';
import type { AuditLog } from '../services/audit.js';
import type { AppDeps, Role } from './deps.js';
import type { CommandNeed } from './gate.js';
import type { Replier } from './reply.js';
import type { AppState } from './state.js';

/** What was wrong with the words, as one sentence for help. */
export interface Problem {
  problem: string;
}

export const problem = (sentence: string): Problem => ({ problem: sentence });

export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'problem' in value;
}

/** Everything a run needs, for a command and for a navigation click alike. */
export interface RunContext {
  deps: AppDeps;
  /** The per-app state the composition root built (audit trail, once-guard, snapshots, work tracker). */
  state: AppState;
  client: webApi.WebClient;
  userId: string;
  /** The role the gate let through ('none' only for asking for a course, which needs no role). */
  role: Role;
  canChange: boolean;
  /** The pools the role covers (the gate's verdict); absent where no role was asked: every pool. */
  scope?: Scope;
  reply: Replier;
}

/** A slash command also has a trigger_id (modals) and its channel. */
export interface CommandContext extends RunContext {
  command: { user_id: string; channel_id: string; trigger_id: string };
}

/** A refusal by the gate, for entries that record one (the change subcommands audit it). */
export interface RefusalContext {
  deps: AppDeps;
  userId: string;
  audit: AuditLog;
  /** Why, for the entry's detail: "not a license admin (command)" or "no access to License Desk (command)". */
  detail: string;
}

export interface Subcommand<A> {
  /** The first word, lower case. */
  name: string;
  aliases?: readonly string[];
  /** After `/licenses `, as help, README and the manifest show it. */
  usage: string;
  summary: string;
  need: CommandNeed;
  /** False: help does not list it (help itself). */
  listed?: boolean;
  /** The words after the name; pure and total. */
  parse(words: string[]): A | Problem;
  run(args: A, ctx: CommandContext): Promise<void>;
  /**
   * Shows student data (names, e-mails, licenses, progress, requesters): a refused attempt is
   * audited, as a refused change is. Reads of pools, courses and the account are not.
   */
  studentData?: boolean;
  /**
   * Records the gate's refusal of this entry (after the refusal was sent) in its own words (assign,
   * extend and revoke name the pool or license); without it, a refused change or read of student
   * data is recorded as a refused `command`.
   */
  refused?(args: A, ctx: RefusalContext): Promise<void>;
}

/** A read that navigation buttons lead to: its arguments are the button's target. */
export interface NavSubcommand<V extends NavView> extends Subcommand<NavTargetOf<V>> {
  view: V;
  run(args: NavTargetOf<V>, ctx: RunContext): Promise<void>;
}

/** What help, README and the manifest show of an entry, and what the gate needs. */
export type SubcommandInfo = Pick<
  Subcommand<unknown>,
  'name' | 'aliases' | 'usage' | 'summary' | 'need' | 'listed' | 'studentData'
>;

/** An entry of the table, its argument type hidden: it parses words into a bound run. */
export interface TableEntry extends SubcommandInfo {
  /** The entry's own parse, its result type hidden (for tests and tools). */
  parse(words: string[]): unknown;
  bind(words: string[]): Bound | Problem;
}

/** An entry bound to its parsed arguments: what the listener authorizes and runs. */
export interface Bound {
  entry: SubcommandInfo;
  run(ctx: CommandContext): Promise<void>;
  refused?(ctx: RefusalContext): Promise<void>;
}

/** A navigation target bound to its read: needs no trigger_id. */
export interface NavBound {
  entry: SubcommandInfo;
  run(ctx: RunContext): Promise<void>;
}

export function bind<A>(entry: Subcommand<A>, args: A): Bound {
  const { refused } = entry;
  return {
    entry,
    run: (ctx) => entry.run(args, ctx),
    ...(refused ? { refused: (ctx: RefusalContext) => refused(args, ctx) } : {}),
  };
}

/** A table entry: parses the words after the name and binds the entry to them, or says what was wrong. */
export function tableEntry<A>(entry: Subcommand<A>): TableEntry {
  const { name, aliases, usage, summary, need, listed, studentData } = entry;
  return {
    name,
    usage,
    summary,
    need,
    ...(studentData ? { studentData } : {}),
    ...(aliases ? { aliases } : {}),
    ...(listed === undefined ? {} : { listed }),
    parse: (words) => entry.parse(words),
    bind(words) {
      const args = entry.parse(words);
      return isProblem(args) ? args : bind(entry, args);
    },
  };
}
