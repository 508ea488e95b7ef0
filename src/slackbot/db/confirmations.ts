/** The preview tokens that made their change (docs/slackbot.md): the first use is recorded, a second refused. */
import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/schema.js';

export interface UsedToken {
  id: string;
  user: string;
  tool: string;
  expiresAt: number;
}

export interface Confirmations {
  /** True for the first use of the token; false when it was used already (any replica). */
  use(token: UsedToken, now: Date): Promise<boolean>;
}

export function createConfirmations(db: Kysely<Database>): Confirmations {
  return {
    async use(token, now) {
      // Tokens long expired are of no use to keep: the signature's time already refuses them.
      await db
        .deleteFrom('slackbot_confirmations')
        .where('expires_at', '<', new Date(now.getTime() - 86_400_000).toISOString())
        .execute();
      const result = await db
        .insertInto('slackbot_confirmations')
        .values({
          token_id: token.id,
          user_id: token.user,
          tool: token.tool,
          used_at: now.toISOString(),
          expires_at: new Date(token.expiresAt).toISOString(),
        })
        .onConflict((oc) => oc.column('token_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
  };
}
