/**
 * How a database URL (DATABASE_URL, and REDIS_URL likewise) is shown: never with its password,
 * whatever the URL's shape. A password can sit in the user information (`desk:secret@`), written with
 * characters a URL parser reads otherwise (an unencoded `@` or `/`), or in the query string
 * (`?password=secret`, which the PostgreSQL driver reads too). Pure: config.ts, the records and
 * `npm run backup` all use it, so the rule is written once.
 */

/** Query parameters that may carry a secret (`password`, `sslpassword`, a token or a key). */
const SECRET_PARAM = /pass|secret|token|key/i;
const SCHEME = /^([a-z][a-z0-9+.-]*:\/\/)(.*)$/is;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

interface Parts {
  scheme: string;
  /** Everything before the last `@`, as written (undefined: no user information). */
  userinfo?: string;
  /** host[:port][/path], as written. */
  address: string;
  /** The query's `name=value` pairs, as written (empty: no query). */
  query: string[];
}

/**
 * The URL cut as a person writing it means it: the user information runs to the LAST `@` (a password
 * may hold an unencoded `@` or `/`; so may a query value, and then more is hidden than needed, never
 * less); the fragment is dropped.
 */
function parts(url: string): Parts | undefined {
  const m = SCHEME.exec(url.trim());
  if (!m) return undefined;
  const scheme = m[1] ?? '';
  let rest = m[2] ?? '';
  let userinfo: string | undefined;
  // The last `@` of the whole text, fragment included: a password may hold an unencoded `#` too.
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    userinfo = rest.slice(0, at);
    rest = rest.slice(at + 1);
  }
  rest = rest.replace(/#.*$/s, '');
  const q = rest.indexOf('?');
  const address = q >= 0 ? rest.slice(0, q) : rest;
  const query = q >= 0 ? rest.slice(q + 1).split('&') : [];
  return { scheme, ...(userinfo === undefined ? {} : { userinfo }), address, query };
}

/**
 * The URL to show (`mode: 'mark'`, the default: each secret replaced by `***`) or to hand to a tool
 * that asks for the password itself (`mode: 'drop'`: the password and secret query parameters left
 * out, e.g. the pg_dump command `npm run backup` prints). A text that is not a URL is not repeated.
 */
export function redactDatabaseUrl(url: string, mode: 'mark' | 'drop' = 'mark'): string {
  const p = parts(url);
  if (!p) return 'the URL (not repeated: it is not a URL)';
  let user = '';
  if (p.userinfo !== undefined) {
    const colon = p.userinfo.indexOf(':');
    const name = colon >= 0 ? p.userinfo.slice(0, colon) : p.userinfo;
    // A "user name" with / ? or # is no user name: the `@` belonged to something else. Hide it all.
    if (/[/?#]/.test(name)) user = mode === 'mark' ? '***@' : '';
    else if (colon >= 0) user = mode === 'mark' ? `${name}:***@` : `${name}@`;
    else user = `${name}@`;
  }
  const query = p.query.flatMap((pair) => {
    const eq = pair.indexOf('=');
    const name = eq >= 0 ? pair.slice(0, eq) : pair;
    if (!SECRET_PARAM.test(decoded(name))) return [pair];
    return mode === 'mark' ? [`${name}=***`] : [];
  });
  return `${p.scheme}${user}${p.address}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

/** Every form of every secret the URL holds (as written and decoded), for the log's redactor. */
export function databaseUrlSecrets(url: string): string[] {
  const p = parts(url);
  if (!p) return url.trim() === '' ? [] : [url.trim()];
  const out: string[] = [];
  if (p.userinfo !== undefined) {
    const colon = p.userinfo.indexOf(':');
    if (colon >= 0) out.push(p.userinfo.slice(colon + 1));
    else if (/[/?#]/.test(p.userinfo)) out.push(p.userinfo);
  }
  for (const pair of p.query) {
    const eq = pair.indexOf('=');
    if (eq >= 0 && SECRET_PARAM.test(decoded(pair.slice(0, eq)))) out.push(pair.slice(eq + 1));
  }
  // What a URL parser reads as the password too (it may cut the written one short).
  try {
    out.push(new URL(url.trim()).password);
  } catch {
    // not a URL for the parser: the forms above are all there is
  }
  return [...new Set(out.flatMap((s) => [s, decoded(s), decoded(s.replace(/\+/g, ' '))]))].filter((s) => s !== '');
}

/**
 * Why the URL cannot be read as its author meant, if it cannot: an `@` after a `/`, `?` or `#` of the
 * user information makes the driver connect elsewhere (and print part of the password as a host or
 * path). The sentence never repeats the URL.
 */
export function databaseUrlProblem(name: string, url: string): string | undefined {
  const p = parts(url);
  if (!p || p.userinfo === undefined || !/[/?#]/.test(p.userinfo)) return undefined;
  return `${name} cannot be read as written: a / ? # @ or : in its user name or password must be percent-encoded (/ as %2F, ? as %3F, # as %23, @ as %40, : as %3A), e.g. ${name === 'REDIS_URL' ? 'redis://:p%2Fss@127.0.0.1:6379' : 'postgres://desk:p%2Fss@db.internal:5432/license_desk'} ; an @ after the host, in the database name or a parameter, is written %40 too (the URL is not repeated here, as it holds a password)`;
}
