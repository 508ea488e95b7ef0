/** What the change subcommands hand to runChangeCommand (src/slack/subcommands/change.ts). */
import type { FindTarget } from './words.js';

export type ChangeCommand =
  | { kind: 'assign'; poolId?: string; student?: FindTarget; endDate?: string }
  | { kind: 'extend'; licenseId: string; endDate?: string }
  | { kind: 'revoke'; licenseId: string };
