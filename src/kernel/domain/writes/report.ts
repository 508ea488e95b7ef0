/**
 * What became of a write, in the terms its answer is worded in: services/writes/outcome.ts makes it
 * from the write's outcome (`reportOf`), blocks/outcome.ts words it (`describeReport`). Plain data:
 * the error is already a sentence, so the builders need nothing from the licensing client.
 */
export type WriteReport<T> =
  /** Done; `checked` when an unclear answer was resolved by reading back. */
  | { kind: 'done'; value: T; checked: boolean }
  /**
   * Refused by the service (400, 404) or a clear failure before anything changed. `sentence` says why
   * in plain text (not escaped); `nothingChanged` when that is certain: a refusal, or a write never sent
   * because License Desk was stopping.
   */
  | { kind: 'refused' | 'failed'; sentence: string; nothingChanged: boolean }
  /** The answer was lost, and reading back showed that nothing changed. */
  | { kind: 'not-done' }
  /** The answer was lost and reading back failed too; `stopped` when License Desk stopped waiting. */
  | { kind: 'unknown'; stopped: boolean };
