/**
 * The pasted list of a bulk assignment: one student a line, as `email`, `name, email` (also
 * `email, name`, `Name <email>`, and tab or semicolon instead of the comma, which is what a copied
 * spreadsheet column pair gives). Blank lines and lines starting with # are skipped. Pure.
 */
import { parseEmail } from '../../kernel/domain/email.js';

export const BULK_MAX_ROWS = 500;
/** Longer lines are cut when quoted back; no real address or name needs more. */
const MAX_LINE = 300;

export interface BulkLine {
  /** 1-based line number among the non-blank lines of all list boxes, as the user counts them. */
  line: number;
  email: string;
  name?: string;
  /** The line as typed (trimmed, capped), for the per-row report. */
  raw: string;
}

export interface ParsedBulkList {
  rows: BulkLine[];
  /** Lines beyond BULK_MAX_ROWS (not in rows). */
  extra: number;
}

/** Whether the text reads as one address (the rule the assign modal uses too). */
export function isEmail(text: string): boolean {
  return parseEmail(text) !== undefined;
}

const unquote = (s: string) =>
  s
    .trim()
    .replace(/^["']+|["']+$/g, '')
    .trim();

export function parseBulkLine(text: string): Omit<BulkLine, 'line'> {
  const raw = Array.from(text.trim()).slice(0, MAX_LINE).join('');
  const angle = /^(.*)<([^<>]+)>\s*$/.exec(raw);
  if (angle) {
    const name = unquote(angle[1] ?? '');
    return { email: unquote(angle[2] ?? ''), ...(name ? { name } : {}), raw };
  }
  const parts = raw.split(/[,;\t]/).map(unquote);
  if (parts.length === 1) return { email: parts[0] ?? '', raw };
  const last = parts[parts.length - 1] ?? '';
  const first = parts[0] ?? '';
  if (!isEmail(last) && isEmail(first)) {
    const name = parts.slice(1).join(' ').trim();
    return { email: first, ...(name ? { name } : {}), raw };
  }
  const name = parts.slice(0, -1).join(' ').trim();
  return { email: last, ...(name ? { name } : {}), raw };
}

/** Several boxes (a plain_text_input holds 3,000 characters) are read as one list, in order. */
export function parseBulkList(texts: readonly string[]): ParsedBulkList {
  const rows: BulkLine[] = [];
  let extra = 0;
  for (const text of texts) {
    for (const line of text.split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#')) continue;
      if (rows.length >= BULK_MAX_ROWS) {
        extra++;
        continue;
      }
      const parsed = parseBulkLine(trimmed);
      rows.push({ line: rows.length + 1, ...parsed, email: parseEmail(parsed.email) ?? parsed.email });
    }
  }
  return { rows, extra };
}
