/**
 * CSV as RFC 4180 writes it (CRLF line ends; a field with a comma, a quote, CR or LF is quoted and
 * its quotes doubled), plus a guard against spreadsheet formula injection: a text cell that starts
 * with = + - @ (or a tab or CR, which some spreadsheets skip before reading a formula) gets a leading
 * apostrophe, so a student named `=HYPERLINK(…)` stays text when the file is opened (OWASP, CSV
 * Injection). Numbers are written as numbers: they cannot carry a formula.
 */

export type CsvValue = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A UTF-8 byte order mark first: Excel otherwise reads accented names (Müller) as Latin-1. */
export const CSV_BOM = '\uFEFF';

/** One record with its CRLF: a file written line by line equals toCsv of the same rows (after the BOM). */
export function csvLine(row: readonly CsvValue[]): string {
  return `${row.map(csvCell).join(',')}\r\n`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return `${CSV_BOM}${[header, ...rows].map(csvLine).join('')}`;
}

/**
 * The license export's columns, in order: the file's header row (services/export.ts) and the list the
 * export's DM gives (blocks/export-comment.ts) both read this one list.
 */
export const EXPORT_COLUMNS = [
  'student',
  'email',
  'course',
  'pool',
  'license',
  'start',
  'end',
  'status',
  'progress',
  'completed',
  // The day License Desk last saw this license's progress or completion change (the daily progress
  // pass, docs/progress.md); empty when it never saw one change.
  'last progress',
] as const;
