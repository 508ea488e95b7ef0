/** `/licenses revoke <licenseId>`: a confirmation first (runChangeCommand). */

import type { Subcommand } from '../../kernel/slack/command-types.js';
import { extra, parseId } from '../../kernel/slack/command-words.js';
import { runChangeCommand } from './change.js';
import type { ChangeCommand } from './change-command.js';
import { auditRefusedChange } from './change-refusal.js';

export const revoke: Subcommand<Extract<ChangeCommand, { kind: 'revoke' }>> = {
  name: 'revoke',
  usage: 'revoke <licenseId>',
  summary: 'end a license now, after a confirmation',
  need: 'admin',
  parse(words) {
    const [first, ...more] = words;
    if (more.length > 0) return extra('revoke', more);
    const licenseId = parseId(first, 'license', '`/licenses revoke 4001`');
    return typeof licenseId === 'string' ? { kind: 'revoke', licenseId } : licenseId;
  },
  run: (args, ctx) => runChangeCommand(args, ctx),
  refused: auditRefusedChange,
};
