/** `/licenses extend <licenseId> [YYYY-MM-DD]`: opens the end-date form (runChangeCommand). */

import type { Subcommand } from '../../kernel/slack/command-types.js';
import { extra, parseDate, parseId } from '../../kernel/slack/command-words.js';
import { runChangeCommand } from './change.js';
import type { ChangeCommand } from './change-command.js';
import { auditRefusedChange } from './change-refusal.js';

export const extend: Subcommand<Extract<ChangeCommand, { kind: 'extend' }>> = {
  name: 'extend',
  usage: 'extend <licenseId> [YYYY-MM-DD]',
  summary: 'change a license’s end date (+30 days, +90 days, pool end, or a date)',
  need: 'admin',
  parse(words) {
    const [first, second, ...more] = words;
    if (more.length > 0) return extra('extend', more);
    const licenseId = parseId(first, 'license', '`/licenses extend 4001 2026-09-30`');
    if (typeof licenseId !== 'string') return licenseId;
    if (second === undefined) return { kind: 'extend', licenseId };
    const endDate = parseDate(second);
    return typeof endDate === 'string' ? { kind: 'extend', licenseId, endDate } : endDate;
  },
  run: (args, ctx) => runChangeCommand(args, ctx),
  refused: auditRefusedChange,
};
