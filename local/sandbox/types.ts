/**
 * The programmatic face of the licensing sandbox (local/sandbox/index.ts exports startSandbox).
 * Tests start it on 127.0.0.1 with port 0; `npm run sandbox` starts it alone.
 */
import type { License, Me, Pool, Student } from '../../src/kernel/domain/types.js';

export type RateLimitAlgorithm = 'fixed-window' | 'sliding-log' | 'token-bucket';

export interface SandboxRateLimit {
  /** Requests allowed per window and token; default 25. */
  limit: number;
  /** Window length in ms; default 60_000. Tests scale it down (for example 25 per 3_000 ms). */
  windowMs: number;
  algorithm: RateLimitAlgorithm;
  /** Send a Retry-After header (seconds, rounded up) with 429s; default false, as the real service. */
  retryAfter: boolean;
  /** Whether a rejected (429) request also counts against the window; default false. */
  countRejected: boolean;
}

export type FaultKind = '500' | '429' | 'malformed-json' | 'reset' | 'hang' | 'latency';

export interface FaultRule {
  kind: FaultKind;
  /** Only requests that match (method upper-case, path regexp tested against the path without query). */
  method?: string;
  path?: RegExp;
  /** 'before' answers without touching the data; 'after' applies the request, then fails the response
   *  (the "unclear outcome" case: a write that happened but whose answer was lost). Default 'before'. */
  phase?: 'before' | 'after';
  /** How many matching requests this rule hits; default unlimited. */
  times?: number;
  /** Share of matching requests hit, 0..1; default 1. */
  rate?: number;
  /** For 'latency': added delay in ms. */
  latencyMs?: number;
  /** For '429': the Retry-After header to send, in seconds; default none (as the real service). */
  retryAfterSec?: number;
}

export interface RecordedRequest {
  method: string;
  /** Path with query string, e.g. `/v1/licenses?page=2`. */
  url: string;
  /** Milliseconds since the epoch, real time, when the request arrived. */
  at: number;
  status: number;
  /** Which token was used: 'admin', 'readonly', 'unknown' or 'none'. Never the token itself. */
  tokenKind: 'admin' | 'readonly' | 'unknown' | 'none';
}

/** How big `buildScaleData` makes the account. */
export interface ScaleSeed {
  pools: number;
  licenses: number;
  /** One student (heavy@contoso.com) holds this many of the licenses, each in another pool and course. */
  heavyStudentLicenses?: number;
}

export interface SandboxData {
  me: Omit<Me, 'pools' | 'licenses' | 'untransferableLicenses' | 'transferableLicenses'>;
  courses: { id: string; title: string }[];
  pools: Omit<Pool, 'assignedLicenses' | 'availableLicenses'>[];
  students: { id: string; name: string; email: string }[];
  licenses: (Omit<License, 'student' | 'courseId' | 'revokable' | 'editable'> & { studentId: string })[];
  /** Progress per (studentId, courseId): percentage and completion date-time or null. */
  progress: { studentId: string; courseId: string; progress: number; completed: string | null }[];
}

export interface SandboxOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Injectable clock; default () => new Date(). Rules (expiry, "now") use it. */
  now?: () => Date;
  /** false disables rate limiting; a partial object overrides the defaults. */
  rateLimit?: Partial<SandboxRateLimit> | false;
  /** Largest pageSize accepted; larger gets 400. Default 100. */
  maxPageSize?: number;
  /**
   * 'demo' (default) seeds the demo data relative to now(); 'empty' starts with nothing but `me`;
   * `{ scale }` generates a big account (seed.ts, buildScaleData).
   */
  seed?: 'demo' | 'empty' | SandboxData | { scale: ScaleSeed };
  /** Tokens; random ones are generated when omitted. */
  adminToken?: string;
  readOnlyToken?: string;
  /** Fault rules in force from the start. */
  faults?: FaultRule[];
}

export interface RunningSandbox {
  /** Base URL without /v1, e.g. http://127.0.0.1:41234 (LICENSING_API_URL). */
  url: string;
  adminToken: string;
  readOnlyToken: string;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  clearRequests(): void;
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  setRateLimit(rateLimit: Partial<SandboxRateLimit> | false): void;
  /**
   * Test control: sets a student's progress in a course (what GET /v1/students and GET /v1/student then
   * answer), as if the student had learned. Throws for an unknown student.
   */
  setProgress?(
    student: { email: string },
    courseId: string,
    value: { progress: number; completed: string | null },
  ): void;
  /** Direct, unthrottled reads for test assertions (as the API would answer them). */
  inspect: {
    pool(id: string): Pool | undefined;
    pools(): Pool[];
    license(id: string): License | undefined;
    licenses(opts?: { includeInactive?: boolean; poolId?: string }): License[];
    student(query: { email?: string; id?: string }): Student | undefined;
  };
  close(): Promise<void>;
}
