/** The intent of a write could not be recorded (the database did not answer): the write was not sent. */
export class WriteNotRecordedError extends Error {
  override readonly name = 'WriteNotRecordedError';
}

export const NOT_RECORDED_SENTENCE =
  'License Desk could not record this change in its database before sending it, so nothing was sent. Please try again in a minute, and tell whoever runs License Desk if it keeps happening.';
