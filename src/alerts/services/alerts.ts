/**
 * The daily alert check: read pools and active licenses at background priority,
 * find the conditions not announced before (domain/alerts.ts), hand them to `post` in groups, and
 * remember each group's keys in the alert memory (the database's `state` table, one document for every
 * replica) only once it was posted, so a failed post is tried again on the next check and a restart
 * never repeats one that went out.
 */
import { readFile, rename } from 'node:fs/promises';
import type { Records } from '../../kernel/db/open.js';
import { DAY_MS } from '../../kernel/domain/time.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import type { JsonFile } from '../../kernel/services/state-records.js';
import { stateDocument } from '../../kernel/services/state-records.js';
import { inSlices, yieldToLoop } from '../../kernel/services/turns.js';
import type { AlertGroup } from '../domain/alerts.js';
import { type Alert, alertKeys, alertsFromScan, newLicenseScan, scanLicenses } from '../domain/alerts.js';

export type { AlertGroup };

export interface AlertState {
  version: 1;
  /** Condition key -> when it was announced (ISO). */
  sent: Record<string, string>;
  /** License id -> who chose "Let it end", and when. */
  acknowledged: Record<string, { by: string; at: string }>;
  /** The local day of the last completed daily check. */
  lastRunDay?: string;
  /**
   * License-ending messages posted, by `<channel>:<ts>`: when, and the licenses they list. A "Let it
   * end" click counts only on one of these. Absent in files written before it was kept.
   */
  messages?: Record<string, { at: string; licenses: string[] }>;
}

/** Where a posted alert landed, for messages whose buttons come back. */
export interface PostedAt {
  channel: string;
  ts: string;
}

/** Licenses per message: each needs two blocks (text, buttons) and a message holds 50. */
export const LICENSES_PER_MESSAGE = 15;
/** Pools per capacity message: one line each, well inside a section's 3,000 characters. */
export const POOLS_PER_MESSAGE = 20;
/** Keys older than this are forgotten: their pool or license has long ended, so they cannot recur. */
const FORGET_AFTER_MS = 400 * DAY_MS;
const BACKGROUND = { priority: 'background' } as const;

/** Why "Let it end" recorded nothing: the button's license id is a hint, checked on a fresh read. */
export type LetEndRefusal =
  /** No alert announced this license ending on its current end day (never, or the end moved since). */
  | { kind: 'not-announced'; license: License }
  /** The license is no longer active, or its end has passed: there is nothing left to decide. */
  | { kind: 'ended'; license: License }
  /** The clicked message is not a license-ending alert License Desk posted with this license in it. */
  | { kind: 'not-our-message' };

export interface AlertService {
  /** Runs one check and posts what is new; resolves with the number of groups posted. */
  check(post: (group: AlertGroup) => Promise<PostedAt | undefined>): Promise<number>;
  acknowledge(licenseId: string, by: string): Promise<void>;
  /**
   * "Let it end" on a license-ending alert: records the choice only when the clicked message (`at`)
   * is a license-ending alert posted with this license, and a read of the license (never cached)
   * shows it still runs and still ends on the day announced. Read failures are thrown; nothing is
   * recorded then.
   */
  letEnd(
    licenseId: string,
    by: string,
    at: PostedAt,
  ): Promise<{ ok: true; license: License } | { ok: false; refusal: LetEndRefusal }>;
  state(): Promise<AlertState>;
  /** When the last alerts went out (ISO), from what is remembered; undefined when none ever did. */
  lastPostedAt(): Promise<string | undefined>;
  lastRunDay(): Promise<string | undefined>;
  setLastRunDay(day: string): Promise<void>;
}

/** The alert memory's key in `state`; the in-process sandbox's own memory, emptied at each start, apart. */
export const ALERT_MEMORY_KEY = 'alerts';
export const SANDBOX_ALERT_MEMORY_KEY = 'alerts:sandbox';

const emptyAlertState = (): AlertState => ({ version: 1, sent: {}, acknowledged: {}, messages: {} });

function parseAlertState(v: unknown): AlertState | undefined {
  const o = v as Partial<AlertState> | null;
  if (o?.version !== 1 || typeof o.sent !== 'object' || o.sent === null) return undefined;
  return {
    version: 1,
    sent: o.sent,
    acknowledged: typeof o.acknowledged === 'object' && o.acknowledged !== null ? o.acknowledged : {},
    ...(typeof o.lastRunDay === 'string' ? { lastRunDay: o.lastRunDay } : {}),
    ...(typeof o.messages === 'object' && o.messages !== null ? { messages: o.messages } : {}),
  };
}

/** The alert memory in the database: what was announced, the Let it end choices, the messages posted, the day of the last check. */
export function alertMemory(records: Records, key = ALERT_MEMORY_KEY): JsonFile<AlertState> {
  return stateDocument<AlertState>(records, key, { empty: emptyAlertState, parse: parseAlertState });
}

/**
 * Brings an alert memory file of an earlier version (DATA_DIR/alerts.json) into the database once: its
 * entries are added to what the database remembers (an entry both know keeps the database's), then the
 * file is renamed to `<name>.imported-<time>` and a line logged. Importing twice (a stop between the
 * two steps) adds nothing. A file that cannot be read stops the import with its name: going on without
 * it would post every alert it remembers again. Resolves with whether a file was imported.
 */
export async function importAlertFile(
  memory: JsonFile<AlertState>,
  path: string,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return false;
    throw new Error(
      `The alert memory file ${path} cannot be read (${error instanceof Error ? error.message : String(error)}): give this user read access to it, or move it aside to start without it (alerts it remembers would then be posted again)`,
    );
  }
  let file: AlertState | undefined;
  try {
    file = parseAlertState(JSON.parse(text));
  } catch {
    file = undefined;
  }
  if (!file) {
    throw new Error(
      `The alert memory file ${path} is not an alert memory License Desk wrote (damaged or edited): restore it from a backup, or move it aside to start without it (alerts it remembers would then be posted again)`,
    );
  }
  const from = file;
  await memory.update((s) => {
    s.sent = { ...from.sent, ...s.sent };
    s.acknowledged = { ...from.acknowledged, ...s.acknowledged };
    if (from.messages) s.messages = { ...from.messages, ...s.messages };
    // A file from before messages were kept cannot tell which message a click came from: nor can we.
    else if (Object.keys(s.messages ?? {}).length === 0) delete s.messages;
    if (from.lastRunDay && (!s.lastRunDay || from.lastRunDay > s.lastRunDay)) s.lastRunDay = from.lastRunDay;
  });
  const aside = `${path}.imported-${now().toISOString().replace(/[:.]/g, '-')}`;
  await rename(path, aside);
  logger.info('alert memory file imported into the database and moved aside', {
    path,
    aside,
    announced: Object.keys(from.sent).length,
  });
  return true;
}

export function groupAlerts(alerts: readonly Alert[]): AlertGroup[] {
  const groups: AlertGroup[] = [];
  const capacity = alerts.filter((a) => a.kind === 'pool-capacity');
  for (let i = 0; i < capacity.length; i += POOLS_PER_MESSAGE) {
    groups.push({ kind: 'pool-capacity', alerts: capacity.slice(i, i + POOLS_PER_MESSAGE) });
  }
  for (const a of alerts) if (a.kind === 'pool-ending') groups.push({ kind: 'pool-ending', alerts: [a] });
  const licenses = alerts.filter((a) => a.kind === 'license-ending');
  for (let i = 0; i < licenses.length; i += LICENSES_PER_MESSAGE) {
    groups.push({ kind: 'license-ending', alerts: licenses.slice(i, i + LICENSES_PER_MESSAGE) });
  }
  return groups;
}

/** The alerts due at `at` that were not announced yet. */
async function dueAlerts(licenses: License[], pools: Pool[], at: Date, state: AlertState): Promise<Alert[]> {
  // The same rule as findAlerts, a slice of licenses per turn: at 50,000 licenses one pass held
  // the event loop for over 50 ms.
  const scan = newLicenseScan();
  await inSlices(licenses.length, (from, to) => scanLicenses(scan, licenses, from, to, at));
  await yieldToLoop();
  return alertsFromScan(scan, { pools, now: at, sent: (key) => key in state.sent });
}

/** A group posted: its alerts announced, and a license message remembered where it was posted. */
function rememberPosted(s: AlertState, group: AlertGroup, where: PostedAt | undefined, at: Date): void {
  const stamp = at.toISOString();
  for (const a of group.alerts) for (const key of [a.key, ...a.covers]) s.sent[key] = stamp;
  if (where && group.kind === 'license-ending') {
    s.messages ??= {};
    s.messages[`${where.channel}:${where.ts}`] = { at: stamp, licenses: group.alerts.map((a) => a.license.id) };
  }
}

/** Forgets announcements and messages older than FORGET_AFTER_MS. */
function forgetOld(s: AlertState, at: Date): void {
  const cutoff = at.getTime() - FORGET_AFTER_MS;
  for (const [key, when] of Object.entries(s.sent)) if (Date.parse(when) < cutoff) delete s.sent[key];
  for (const [key, m] of Object.entries(s.messages ?? {})) {
    if (Date.parse(m.at) < cutoff) delete s.messages?.[key];
  }
}

export interface AlertServiceOptions {
  licensing: LicensingClient;
  file: JsonFile<AlertState>;
  now: () => Date;
  logger: Logger;
}

export function createAlertService({ licensing, file, now, logger }: AlertServiceOptions): AlertService {
  const acknowledge = async (licenseId: string, by: string): Promise<void> => {
    await file.update((s) => {
      s.acknowledged[licenseId] = { by, at: now().toISOString() };
    });
  };
  return {
    async check(post) {
      const pools = await licensing.pools.list({ ...BACKGROUND, fresh: true });
      const licenses = await licensing.licenses.all({}, BACKGROUND);
      const state = await file.read();
      const at = now();
      const alerts = await dueAlerts(licenses, pools, at, state);
      let posted = 0;
      for (const group of groupAlerts(alerts)) {
        const where = await post(group);
        posted++;
        await file.update((s) => rememberPosted(s, group, where, at));
      }
      await file.update((s) => forgetOld(s, at));
      logger.info('alert check done', { found: alerts.length, messages: posted });
      return posted;
    },
    acknowledge,
    async letEnd(licenseId, by, at) {
      const messages = (await file.read()).messages;
      // Files from before messages were kept cannot tell; the license checks below still apply.
      if (messages && !messages[`${at.channel}:${at.ts}`]?.licenses.includes(licenseId)) {
        return { ok: false, refusal: { kind: 'not-our-message' } };
      }
      const license = await licensing.licenses.get(licenseId, INTERACTIVE);
      const end = Date.parse(license.end);
      if (!license.active || (!Number.isNaN(end) && end <= now().getTime())) {
        return { ok: false, refusal: { kind: 'ended', license } };
      }
      if (!(alertKeys.licenseEnding(license) in (await file.read()).sent)) {
        return { ok: false, refusal: { kind: 'not-announced', license } };
      }
      await acknowledge(license.id, by);
      return { ok: true, license };
    },
    state: () => file.read(),
    async lastPostedAt() {
      let last: string | undefined;
      for (const at of Object.values((await file.read()).sent)) {
        if (last === undefined || Date.parse(at) > Date.parse(last)) last = at;
      }
      return last;
    },
    lastRunDay: async () => (await file.read()).lastRunDay,
    setLastRunDay: async (day) => {
      await file.update((s) => {
        s.lastRunDay = day;
      });
    },
  };
}
