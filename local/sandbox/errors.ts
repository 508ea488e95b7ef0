/**
 * Every refusal of the sandbox is an ApiError: an HTTP status plus the JSON body
 * `{ "message": "<a sentence a person can read>", "code": "<stable-machine-code>" }`.
 * The contract says only "Details are in the response body" (licensing-api.md, Errors); the shape is ours.
 */

export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'internal_error'
  | 'invalid_body'
  | 'invalid_email'
  | 'invalid_date'
  | 'invalid_query'
  | 'student_already_enrolled'
  | 'no_license_available'
  | 'pool_not_transferable'
  | 'domain_not_allowed'
  | 'pool_ended'
  | 'date_in_past'
  | 'date_beyond_pool_end'
  | 'date_before_pool_start'
  | 'license_expired'
  | 'license_inactive'
  | 'license_not_revokable';

export interface ErrorBody {
  message: string;
  code: ErrorCode;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;

  constructor(status: number, code: ErrorCode, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }

  toBody(): ErrorBody {
    return { message: this.message, code: this.code };
  }
}

/** 400 for a broken request or a business rule (the contract gives 400 "Request invalid" for both). */
export function badRequest(code: ErrorCode, message: string): ApiError {
  return new ApiError(400, code, message);
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError(404, 'not_found', `No ${what} with id ${JSON.stringify(id)} exists.`);
}
