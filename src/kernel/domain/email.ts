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
 * own replies only. Of the local part only its first character is kept (`josé@exämple.com` ->
 * `j***@exämple.com`); a quoted local part (`"ada l"@…`) keeps the first character inside the quotes.
 * The rules behind both functions are in docs/logging.md.
 */
export function maskEmail(email: string): string {
  const at = lastAt(email);
  if (at < 1) return '***';
  return `${maskLocal(email.slice(0, at))}@${email.slice(at + 1)}`;
}

/** `@`, and the full-width and small at signs NFKC turns into `@`. */
const AT_SIGNS = new Set(['@', '\uFF20', '\uFE6B']);
/** The dots IDNA reads as label separators: `.`, ideographic, full-width and half-width. */
const DOTS = '.\u3002\uFF0E\uFF61';

function lastAt(text: string): number {
  for (let i = text.length - 1; i >= 0; i -= 1) if (AT_SIGNS.has(text[i] ?? '')) return i;
  return -1;
}

/** The first character of a local part (a code point, never half a surrogate pair), then `***`. */
function maskLocal(local: string): string {
  const inner = local.replace(/^\\?"/, '');
  const first = Array.from(inner)[0] ?? '';
  // A backslash or quote kept alone could break the JSON line it sits in; a control character is noise.
  return /^[\p{L}\p{N}\p{S}\p{M}!#$%&'*+\-/=?^_`{|}~.]$/u.test(first) ? `${first}***` : '***';
}

// RFC 5322 atext plus the dot, in ASCII; RFC 6531 lets every non-ASCII character into a local part.
const LOCAL_ASCII = /[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.]/;
const isLocalChar = (c: string): boolean =>
  c.charCodeAt(0) >= 0x80 ? !/^\s$/u.test(c) && !AT_SIGNS.has(c) : LOCAL_ASCII.test(c);

/**
 * A domain right after the `@`: labels of ASCII letters, digits and hyphens or of any non-ASCII
 * letters (an internationalised domain, written as such or as punycode `xn--…`), at least two of them
 * separated by dots; JSON's `\uXXXX` escapes count as characters. Or an address literal `[…]`.
 */
const LABEL = String.raw`(?:[A-Za-z0-9\-]|\\u[0-9A-Fa-f]{4}|[^\x00-\x7F\s${DOTS}\uFF20\uFE6B])+`;
const DOMAIN = new RegExp(String.raw`(?:${LABEL}(?:[${DOTS}]${LABEL})+|\[[^\]\s"\\]{1,253}\])`, 'uy');

/** Where the domain starting at `from` ends, or -1 when there is none. */
function domainEnd(text: string, from: number): number {
  DOMAIN.lastIndex = from;
  return DOMAIN.test(text) ? DOMAIN.lastIndex : -1;
}

/** Number of backslashes directly before `index`. */
function backslashesBefore(text: string, index: number): number {
  let n = 0;
  while (index - n - 1 >= 0 && text[index - n - 1] === '\\') n += 1;
  return n;
}

/**
 * Where the local part ending just before the `@` at `at` starts (never before `floor`); `at` when
 * there is none. Walks back over local-part characters (the whole of `o'brien`, `josé`, `Zoë.Üntz`),
 * over JSON escapes (`jos\u00e9`), and over a quoted local part (`"ada l"`, in JSON `\"ada l\"`).
 */
function localStart(text: string, at: number, floor: number): number {
  const before = text[at - 1];
  if (before === '"') {
    const escaped = backslashesBefore(text, at - 1) % 2 === 1;
    const close = escaped ? at - 2 : at - 1;
    for (let i = close - 1; i >= floor && close - i <= 130; i -= 1) {
      const c = text[i];
      if (c === '@' || c === '\n' || c === '\r') break;
      if (c !== '"') continue;
      const openEscaped = backslashesBefore(text, i) % 2 === 1;
      if (openEscaped !== escaped) break;
      // Between a JSON key and its value (`"b":"@…`) only punctuation stands: not a local part.
      const content = text.slice(i + 1, escaped ? close - 1 : close);
      return /[\p{L}\p{N}]/u.test(content) ? (escaped ? i - 1 : i) : at;
    }
    return at;
  }
  let i = at;
  while (i > floor) {
    const c = text[i - 1] ?? '';
    if (isLocalChar(c)) {
      i -= 1;
      continue;
    }
    // `\uXXXX` that is an escape (an odd run of backslashes), whose `uXXXX` the walk already passed.
    if (c === '\\' && /^u[0-9A-Fa-f]{4}/.test(text.slice(i, i + 5)) && backslashesBefore(text, i - 1) % 2 === 0) {
      i -= 1;
      continue;
    }
    break;
  }
  return i;
}

/**
 * Every e-mail address in `text` masked as by maskEmail: for log lines (applied to the whole JSON
 * line). A scan, not one regular expression: linear in the text, whatever it holds.
 */
export function maskEmailsIn(text: string): string {
  let out = '';
  let done = 0; // text before this index is settled
  for (let at = 0; at < text.length; at += 1) {
    if (!AT_SIGNS.has(text[at] ?? '')) continue;
    const end = domainEnd(text, at + 1);
    if (end < 0) continue;
    const start = localStart(text, at, done);
    if (start === at) continue;
    out += `${text.slice(done, start)}${maskLocal(text.slice(start, at))}${text.slice(at, end)}`;
    done = end;
    at = end - 1;
  }
  return done === 0 ? text : out + text.slice(done);
}
