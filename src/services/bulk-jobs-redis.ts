/**
 * Bulk jobs in Redis (REDIS_URL), so that any replica can carry on a job another one started: the job
 * without its rows in one key, its rows in a hash by line (one HSET per row change, the row done and
 * the next one in flight together), the ids of running jobs in a set. A finished job's keys expire
 * after KEEP_FINISHED_MS.
 *
 * Ownership: the replica running a job holds it under a random token (`own`); every write checks the
 * token in the same script that writes, so a replica that lost the job (its queue lock expired while
 * it stalled, and another replica took over) gets JobTakenOverError instead of overwriting the rows
 * of the new owner, and stops before sending anything more.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type BulkJob, type BulkJobStore, isJob, JobTakenOverError, KEEP_FINISHED_MS } from './bulk-jobs.js';
import { KEY_PREFIX } from './shared-store.js';

export interface RedisBulkJobStore extends BulkJobStore {
  /** Takes the job for this replica from now on (a takeover ends the previous owner's writes). */
  own(id: string): Promise<void>;
}

const meta = (id: string) => `${KEY_PREFIX}bulk:job:${id}`;
const rowsKey = (id: string) => `${KEY_PREFIX}bulk:rows:${id}`;
const ownerKey = (id: string) => `${KEY_PREFIX}bulk:owner:${id}`;
const RUNNING = `${KEY_PREFIX}bulk:running`;

// KEYS: owner, rows. ARGV: token (empty: no owner check), then field/value pairs.
const SAVE_ROWS = `
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
return 1`;
// KEYS: owner, meta, rows, running. ARGV: token, id, meta json, done ('1'/'0'), keep ms, pairs...
const SAVE_JOB = `
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[3])
redis.call('DEL', KEYS[3])
for i = 6, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]) end
if ARGV[4] == '1' then
  redis.call('SREM', KEYS[4], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ARGV[5])
  redis.call('DEL', KEYS[1])
else
  redis.call('SADD', KEYS[4], ARGV[2])
end
return 1`;

export function createRedisBulkJobStore(client: Redis): RedisBulkJobStore {
  const tokens = new Map<string, string>();
  const tokenOf = (id: string) => tokens.get(id) ?? '';

  async function load(id: string): Promise<BulkJob | undefined> {
    const [raw, rows] = await Promise.all([client.get(meta(id)), client.hgetall(rowsKey(id))]);
    if (raw === null) return undefined;
    const job = { ...(JSON.parse(raw) as object), rows: [] } as unknown as BulkJob;
    job.rows = Object.values(rows)
      .map((r) => JSON.parse(r) as BulkJob['rows'][number])
      .sort((a, b) => a.line - b.line);
    return isJob(job) ? job : undefined;
  }

  return {
    async own(id) {
      const token = randomBytes(8).toString('hex');
      await client.set(ownerKey(id), token, 'PX', KEEP_FINISHED_MS);
      tokens.set(id, token);
    },
    async save(job) {
      const { rows, ...rest } = job;
      const pairs = rows.flatMap((r) => [String(r.line), JSON.stringify(r)]);
      const done = job.state === 'done' ? '1' : '0';
      const ok = await client.eval(
        SAVE_JOB,
        4,
        ownerKey(job.id),
        meta(job.id),
        rowsKey(job.id),
        RUNNING,
        tokenOf(job.id),
        job.id,
        JSON.stringify(rest),
        done,
        KEEP_FINISHED_MS,
        ...pairs,
      );
      if (ok !== 1) throw new JobTakenOverError(`bulk job ${job.id} is being run by another replica`);
      if (done === '1') tokens.delete(job.id);
    },
    async saveRows(job, rows) {
      if (rows.length === 0) return;
      const pairs = rows.flatMap((r) => [String(r.line), JSON.stringify(r)]);
      const ok = await client.eval(SAVE_ROWS, 2, ownerKey(job.id), rowsKey(job.id), tokenOf(job.id), ...pairs);
      if (ok !== 1) throw new JobTakenOverError(`bulk job ${job.id} is being run by another replica`);
    },
    load,
    async unfinished() {
      const jobs: BulkJob[] = [];
      for (const id of await client.smembers(RUNNING)) {
        const job = await load(id);
        if (job?.state === 'running') jobs.push(job);
        else if (!job) await client.srem(RUNNING, id);
      }
      return jobs;
    },
    // Finished jobs expire on their own.
    sweep: async () => 0,
  };
}
