/**
 * `/licenses request [course words | poolId]` and `/licenses requests`: asking for a course, open to
 * everyone REQUESTERS lets in (the listener asks the gate's requester check before running these).
 */

import type { Subcommand } from '../../kernel/slack/command-types.js';
import { extra } from '../../kernel/slack/command-words.js';
import { runRequestCommand, runRequestsCommand } from './command.js';

export const request: Subcommand<{ words: string[] }> = {
  name: 'request',
  usage: 'request [course words | poolId]',
  summary:
    'ask the license admins for a seat in a course (a form opens, with the course you named chosen); you are told each step by DM',
  need: 'requester',
  parse: (words) => ({ words }),
  run: (args, ctx) => runRequestCommand(args.words, ctx),
};

export const requests: Subcommand<Record<string, never>> = {
  name: 'requests',
  usage: 'requests',
  summary:
    'your own course requests, a waitlisted one with its place in line; one not yet decided or on the waitlist can be cancelled',
  need: 'requester',
  parse: (words) => (words.length > 0 ? extra('requests', words) : {}),
  run: (_args, ctx) => runRequestsCommand(ctx),
};
