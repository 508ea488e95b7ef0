/**
 * `/licenses history @user`: the entries a person made (actor) or that are about their course
 * request (requester), newest first. The license, pool and student e-mail have theirs (0003_audit).
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  index audit_actor on audit (actor, id)
  index audit_requester on audit (requester, id)
`);
