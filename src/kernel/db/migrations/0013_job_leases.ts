/**
 * One replica runs a job (docs/records.md, "Job leases"): the row names the holder and until when
 * (ISO, so it compares as text on both databases); taken by a conditional write, renewed, deleted.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table job_leases (name text primary key, holder text not null, until text not null)
`);
