/**
 * What the admin is told once about a write that was in flight when License Desk was killed, after
 * the next start read back what became of it (services/settle-writes.ts). Worded by
 * blocks/writes/settled-notice.ts; sent once through the outbox.
 */
export type SettledWriteKind = 'assign' | 'recycle' | 'end-date' | 'revoke';

export interface SettledWriteNotice {
  kind: 'settled-write';
  /** Slack user id of the admin who asked for the write. */
  to: string;
  write: SettledWriteKind;
  /**
   * done: it took effect; not-done: nothing changed; freed-only (a chosen recycle): the old license
   * ended but the newcomer got no license, so the seat is free.
   */
  result: 'done' | 'not-done' | 'freed-only';
  poolId?: string;
  /** The license written to (revoke, end date), the one assigned (assign), or the one ended (recycle). */
  licenseId?: string;
  /** Whose license it is (revoke, end date, the ended one of a recycle). */
  studentName?: string;
  /** Who was to get a license (assign, recycle): the name when known, else the e-mail. */
  newcomer?: string;
  /** The license the newcomer got (assign, recycle). */
  assignedLicenseId?: string;
  /** The end date asked for (YYYY-MM-DD), and the one the license has now (end date). */
  endDate?: string;
  endsNow?: string;
  /** The end date change ended the license now (a past day). */
  past?: boolean;
  /** A revoke that was its holder's own return (Return my seat): told to the holder in their words. */
  byHolder?: boolean;
}
