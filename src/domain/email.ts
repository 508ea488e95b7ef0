/**
 * Student e-mail addresses: syntax, the domain rule for transferable pools (licensing-api-extras.md,
 * GET /v1/me) and the masked form used in log lines. Pure.
 */

const EMAIL = /^[^\s@<>"(),;:|\\[\]]+@[^\s@<>"(),;:|\\[\]]+\.[^\s@<>"(),;:|\\[\]]{2,}$/;
export const EMAIL_MAX = 254;

/** A trimmed address if it reads as one, else undefined. Slack's `<mailto:a@b.c|a@b.c>` is unwrapped. */
export function parseEmail(raw: string): string | undefined {
  const unwrapped = /^<mailto:([^|>]+)(?:\|[^>]*)?>$/.exec(raw.trim())?.[1] ?? raw;
  const email = unwrapped.normalize('NFKC').trim();
  return email.length <= EMAIL_MAX && EMAIL.test(email) ? email : undefined;
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Transferable licenses go only to the allowed domains (exact match, any case). An empty list is read
 * as "no restriction configured", as the sandbox does; the service stays the final judge.
 */
export function isDomainAllowed(email: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const domain = emailDomain(email);
  return allowed.some((d) => d.toLowerCase() === domain);
}

/**
 * `ada.lovelace@contoso.com` -> `a***@contoso.com`. Log lines keep the domain (a domain refusal stays
 * diagnosable) but never the address: student e-mails belong in the audit channel and the actor's
 * own replies only (issue 5, Safety).
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${Array.from(email)[0]}***@${email.slice(at + 1)}`;
}

// Addresses inside free text (a server's refusal quoting the student, an error message).
const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

/** Every e-mail address in `text` masked as by maskEmail: for log lines and the audit file. */
export function maskEmailsIn(text: string): string {
  return text.replace(EMAIL_IN_TEXT, (address) => maskEmail(address));
}
