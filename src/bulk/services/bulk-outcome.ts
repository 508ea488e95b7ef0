/**
 * A refused or failed bulk row, in one plain sentence. The API's 400 carries its own reason
 * (licensing-api.md: already enrolled, no license available, domain); other failures say what
 * happened and that nothing was changed, like present.ts does for a single command.
 */
import { BadRequestError, isLicensingError } from '../../kernel/licensing/errors.js';
import type { JobRow } from '../db/store.js';

export function rowFailure(error: unknown): Pick<JobRow, 'outcome' | 'detail'> {
  if (error instanceof BadRequestError) {
    const reason = error.serverMessage.replace(/[.\s]+$/, '');
    if (/already (enrolled|has an active license)/i.test(reason))
      return { outcome: 'already-enrolled', detail: `${reason}.` };
    return { outcome: 'refused', detail: `Refused: ${reason}.` };
  }
  if (!isLicensingError(error))
    return { outcome: 'failed', detail: 'Something went wrong inside License Desk; not assigned.' };
  switch (error.kind) {
    case 'unauthorized':
      return { outcome: 'failed', detail: 'The licensing API token is no longer valid (401); not assigned.' };
    case 'forbidden':
      return { outcome: 'failed', detail: 'The licensing API token may not assign licenses (403); not assigned.' };
    case 'not-found':
      return { outcome: 'failed', detail: 'The pool no longer exists; not assigned.' };
    case 'rate-limited':
    case 'queue-full':
      return { outcome: 'failed', detail: 'The licensing service stayed busy; not assigned.' };
    case 'budget-unavailable':
      return { outcome: 'failed', detail: "License Desk's shared rate budget (Redis) was unreachable; not assigned." };
    default:
      return { outcome: 'failed', detail: 'The licensing service did not answer; not assigned.' };
  }
}
