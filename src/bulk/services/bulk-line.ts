/**
 * One line of a bulk job as a use case: the assign at background priority (the limiter keeps slots
 * for people waiting in Slack), and after an unclear answer the single assign's read-back
 * (readBackAssign: does the student hold an active license from this pool?), never a second write.
 * The runner keeps the job's state around it (saved before the write, the audit entry after).
 */
import type { License } from '../../kernel/domain/types.js';
import type { Priority } from '../../kernel/licensing/limiter.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { runWrite, type WriteOutcome } from '../../kernel/services/writes/outcome.js';
import { readBackAssign } from '../../kernel/services/writes/read-back.js';

export interface BulkLine {
  poolId: string;
  email: string;
  name?: string | undefined;
  endDate?: string | undefined;
  recycle?: boolean | undefined;
}

export function assignBulkLine(
  licensing: LicensingClient,
  line: BulkLine,
  priority: Priority,
): Promise<WriteOutcome<License>> {
  return runWrite(
    () =>
      licensing.pools.assign(
        line.poolId,
        {
          email: line.email,
          ...(line.name ? { name: line.name } : {}),
          ...(line.endDate ? { endDate: line.endDate } : {}),
          ...(line.recycle ? { recycle: true } : {}),
        },
        { priority },
      ),
    () => readBackAssign(licensing, line.poolId, line.email, priority),
  );
}
