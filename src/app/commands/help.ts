/** `/licenses`, `/licenses help` or `?`: what the caller may do, built from the table of subcommands. */

import type { Subcommand } from '../../kernel/slack/command-types.js';
import { buildHelpMessage, type HelpEntry } from './help-blocks.js';

/** `table`: the entries help lists, read when help is shown (the table holds this entry too). */
export function helpEntry(table: () => readonly HelpEntry[]): Subcommand<Record<string, never>> {
  return {
    name: 'help',
    aliases: ['?'],
    usage: 'help',
    summary: 'what you may do, by role, with examples',
    need: 'viewer',
    // Help lists the others, not itself.
    listed: false,
    // "help me please" is still a request for help.
    parse: () => ({}),
    run: (_args, ctx) => ctx.reply.send(buildHelpMessage(table(), ctx.canChange)),
  };
}
