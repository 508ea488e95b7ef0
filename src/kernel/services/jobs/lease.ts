/**
 * The one way License Desk makes exactly one replica run a job (docs/records.md, "Job leases"): a row
 * per job in `job_leases`, taken by a conditional write that succeeds only when nobody holds the row
 * or its holder's lease has run out, renewed while the run lasts, deleted after. A replica that dies
 * holding it stops renewing, and the lease runs out within its length: another replica then takes
 * the job over. It lives in the database every replica already shares, so Redis being down stops no
 * job (Redis keeps only the rate budget, the repeat guard and caches).
 */
export { createDbLease, type DbLeaseOptions, type JobLease, type LeaseDb } from '../../db/job-leases.js';
