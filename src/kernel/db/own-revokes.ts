/**
 * License Desk's own revokes of one license (intents of kind `revoke` owned by License Desk) since a
 * moment, newest first: how a return of its own (the automatic return of finished seats, a leaver's
 * seat) left by a killed process is read back (docs/records.md, "Writes in flight").
 */
import type { Kysely } from 'kysely';
import { APP_ACTOR } from '../domain/audit-entry.js';
import type { Database } from './schema.js';

export function ownRevokesSince(
  db: Kysely<Database>,
  licenseId: string,
  since: string,
): Promise<{ instance: string; state: string }[]> {
  return db
    .selectFrom('intents')
    .select(['instance', 'state'])
    .where('subject', '=', licenseId)
    .where('kind', '=', 'revoke')
    .where('owner', '=', APP_ACTOR)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .execute();
}
