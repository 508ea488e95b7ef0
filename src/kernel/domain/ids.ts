/**
 * Pool and license ids as License Desk accepts them from people and payloads: a letter or digit, then
 * up to 63 more of letters, digits, `-`, `_`, `.` and `:` (the shapes the licensing API hands out, with
 * room to spare; docs/licensing-api.md). Anything else is refused before a request is sent.
 */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** What an id may hold, for the sentence that refuses one. */
export const ID_RULE = 'letters, digits, -, _, . and :, at most 64 characters';

export function isId(value: string | undefined): value is string {
  return value !== undefined && ID_PATTERN.test(value);
}
