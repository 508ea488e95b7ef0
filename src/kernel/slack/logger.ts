/**
 * Structured JSON-line logging for the whole process, with redaction, plus an adapter that lets Bolt
 * and the Web API client log through it. Anything that looks like a Slack token, and every configured
 * secret value, is replaced by [redacted] before a line is written, and every e-mail address is masked
 * (a***@domain): student e-mails belong only in the audit channel and the actor's own replies. A
 * caller's field never overwrites the line's own time, level, message or component (docs/logging.md).
 */
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import { maskEmailsIn } from '../domain/email.js';
import type { Logger } from '../licensing/types.js';

export type Level = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const NESTED = 'fields';
const TOKEN_PATTERN = /\b(xox[a-z]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+)/g;

export interface LoggerOptions {
  level: Level;
  /** Exact values to redact (tokens, signing secret, licensing token). */
  secrets?: string[];
  /** Where lines go; default stdout. */
  write?: (line: string) => void;
  /** Fixed fields on every line, e.g. { component: 'bolt' }. */
  base?: Record<string, unknown>;
}

export interface LevelledLogger extends Logger {
  readonly level: Level;
  child(base: Record<string, unknown>): LevelledLogger;
}

export function createRedactor(secrets: string[] = []): (text: string) => string {
  // Longest first, so a secret that contains another is removed whole.
  const exact = secrets.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text.replace(TOKEN_PATTERN, '[redacted]');
    for (const s of exact) out = out.split(s).join('[redacted]');
    return out;
  };
}

function errorFields(error: Error): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  // No stack for expected, coded errors; a stack for the unexpected ones, in the log only.
  return {
    name: error.name,
    message: error.message,
    ...(code === undefined ? {} : { code }),
    ...(error.stack && code === undefined ? { stack: error.stack } : {}),
  };
}

function serialise(value: unknown): unknown {
  if (value instanceof Error) return errorFields(value);
  return value;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Keys a line sets itself; a base or caller field of the same name goes under `fields` instead. */
const OWN_KEYS = new Set(['time', 'level', 'message', NESTED]);

/**
 * One line: `time`, `level`, the base fields (component…), `message`, then the caller's fields. No
 * field can overwrite one set before it: a colliding base or caller field (say `time: '09:00'`) is
 * kept under `fields` (`"fields":{"time":"09:00"}`), so the timestamp, level, message and component
 * of a line are always its own.
 */
function lineOf(
  time: string,
  level: Level,
  message: string,
  base: Record<string, unknown> | undefined,
  fields: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const entry: Record<string, unknown> = { time, level };
  const nested: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    const target = OWN_KEYS.has(key) || Object.hasOwn(entry, key) ? nested : entry;
    // defineProperty: a key such as `__proto__` stays a plain field.
    Object.defineProperty(target, key, {
      value: serialise(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  };
  for (const [k, v] of Object.entries(base ?? {})) put(k, v);
  entry.message = message;
  for (const [k, v] of Object.entries(fields ?? {})) put(k, v);
  if (Object.keys(nested).length > 0) entry[NESTED] = nested;
  return entry;
}

export function createLogger(options: LoggerOptions): LevelledLogger {
  const redact = createRedactor(options.secrets);
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const threshold = ORDER[options.level];
  const log = (level: Level, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < threshold) return;
    const entry = lineOf(new Date().toISOString(), level, message, options.base, fields);
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch {
      line = JSON.stringify({ time: entry.time, level, message, note: 'fields were not serialisable' });
    }
    write(maskEmailsIn(redact(line)));
  };
  return {
    level: options.level,
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
    child: (base) => createLogger({ ...options, base: { ...options.base, ...base } }),
  };
}

const toBoltLevel: Record<Level, LogLevel> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

/** Bolt logs variadic arguments; the first string becomes the message, errors become fields. */
export function toBoltLogger(logger: Logger, initial: Level = 'info'): BoltLogger {
  let name = 'bolt';
  let level = toBoltLevel[initial];
  const fromBolt = (l: LogLevel): Level =>
    (Object.entries(toBoltLevel).find(([, v]) => v === l)?.[0] as Level) ?? 'info';
  const forward =
    (l: Level) =>
    (...msg: unknown[]) => {
      if (ORDER[l] < ORDER[fromBolt(level)]) return;
      const text = msg
        .filter((m) => !(m instanceof Error))
        .map((m) => (typeof m === 'string' ? m : safeStringify(m)))
        .join(' ');
      const error = msg.find((m) => m instanceof Error);
      // `source`, not `component`: the logger given may carry its own component (main.ts: 'bolt').
      logger[l](text, { source: name, ...(error ? { error } : {}) });
    };
  return {
    debug: forward('debug'),
    info: forward('info'),
    warn: forward('warn'),
    error: forward('error'),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: (n) => {
      name = n;
    },
  };
}
