/** What the change subcommands hand to runChangeCommand (src/changes/slack/change.ts). */
import type { FindTarget } from '../../kernel/slack/command-words.js';

export type ChangeCommand =
  | { kind: 'assign'; poolId?: string; student?: FindTarget; endDate?: string }
  | { kind: 'extend'; licenseId: string; endDate?: string }
  | { kind: 'revoke'; licenseId: string };
