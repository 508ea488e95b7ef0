/**
 * The preview token of a Slackbot change (docs/slackbot.md): what the preview showed (the tool and its
 * arguments), for whom and until when, signed with a key derived from the app's signing secret, so
 * any replica can check it without a lookup. That it was used is recorded in the database
 * (db/confirmations.ts): a second use is refused whichever replica it reaches.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a preview can be confirmed. */
export const CONFIRM_MINUTES = 5;

export interface TokenFacts {
  /** The token's own id (the used record's key). */
  id: string;
  tool: string;
  /** The arguments the preview was for, without the token. */
  args: Record<string, unknown>;
  user: string;
  /** The pool the preview was about, for the scope check of the confirm. */
  poolId?: string;
  /** What the preview named beside its arguments (a recycle: the license it ends). */
  subject?: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export type TokenCheck =
  | { ok: true; facts: TokenFacts }
  | { ok: false; why: 'forged' | 'expired' | 'other-person' | 'other-change' };

export interface ConfirmTokens {
  issue(
    tool: string,
    args: Record<string, unknown>,
    user: string,
    now: Date,
    poolId?: string,
    subject?: string,
  ): { token: string; facts: TokenFacts };
  check(token: string, tool: string, args: Record<string, unknown>, user: string, now: Date): TokenCheck;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** The same arguments, whatever their key order; absent and undefined alike. */
export function canonical(args: Record<string, unknown>): string {
  const keys = Object.keys(args)
    .filter((k) => args[k] !== undefined)
    .sort();
  return JSON.stringify(keys.map((k) => [k, args[k]]));
}

export function createConfirmTokens(signingSecret: string): ConfirmTokens {
  const key = createHmac('sha256', signingSecret).update('license-desk slackbot confirm v1').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest();
  return {
    issue(tool, args, user, now, poolId, subject) {
      const facts: TokenFacts = {
        id: b64(randomBytes(12)),
        tool,
        args,
        user,
        ...(poolId ? { poolId } : {}),
        ...(subject ? { subject } : {}),
        expiresAt: now.getTime() + CONFIRM_MINUTES * 60_000,
      };
      const payload = b64(JSON.stringify(facts));
      return { token: `${payload}.${b64(mac(payload))}`, facts };
    },
    check(token, tool, args, user, now) {
      const [payload, sig, extra] = token.split('.');
      if (!payload || !sig || extra !== undefined) return { ok: false, why: 'forged' };
      const given = Buffer.from(sig, 'base64url');
      const wanted = mac(payload);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return { ok: false, why: 'forged' };
      let facts: TokenFacts;
      try {
        facts = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenFacts;
      } catch {
        return { ok: false, why: 'forged' };
      }
      if (facts.user !== user) return { ok: false, why: 'other-person' };
      if (facts.expiresAt <= now.getTime()) return { ok: false, why: 'expired' };
      if (facts.tool !== tool || canonical(facts.args) !== canonical(args)) return { ok: false, why: 'other-change' };
      return { ok: true, facts };
    },
  };
}
