import { errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import { errorFromStatus, errorFromTransport, serverMessageOf } from '../../../src/kernel/licensing/error-mapping.js';
import {
  BadRequestError,
  ConnectionError,
  ForbiddenError,
  NotFoundError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../../src/kernel/licensing/errors.js';

const read = { endpoint: 'GET /v1/pool/{id}', write: false };
const write = { endpoint: 'POST /v1/pool/{id}/license', write: true };

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('error mapping: statuses', () => {
  it('maps each status family to its class', () => {
    expect(errorFromStatus(401, '', read)).toBeInstanceOf(UnauthorizedError);
    expect(errorFromStatus(403, '', read)).toBeInstanceOf(ForbiddenError);
    expect(errorFromStatus(404, '', read)).toBeInstanceOf(NotFoundError);
    expect(errorFromStatus(500, '', read)).toBeInstanceOf(ServerError);
    expect(errorFromStatus(503, '', read).status).toBe(503);
    const conflict = errorFromStatus(409, '{"message":"already enrolled"}', write);
    expect(conflict).toBeInstanceOf(BadRequestError);
    expect(conflict.status).toBe(409);
  });

  it('marks a 5xx on a write as outcome unknown, never a 4xx', () => {
    expect(errorFromStatus(500, '', write).outcomeUnknown).toBe(true);
    expect(errorFromStatus(500, '', read).outcomeUnknown).toBe(false);
    expect(errorFromStatus(400, '', write).outcomeUnknown).toBe(false);
  });

  it('keeps the server message of a 400 for display', () => {
    const error = errorFromStatus(400, '{"message":"Student already enrolled","code":"ALREADY_ENROLLED"}', write);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).serverMessage).toBe('Student already enrolled');
    expect(error.message).toContain('Student already enrolled');
  });
});

describe('error mapping: server messages', () => {
  it.each([
    ['{"message":"m1"}', 'm1'],
    ['{"error":"m2"}', 'm2'],
    ['{"error":{"message":"m3"}}', 'm3'],
    ['{"title":"Bad date","detail":"after pool end"}', 'Bad date: after pool end'],
    ['{"title":"Only title"}', 'Only title'],
    ['plain words\n here', 'plain words here'],
    ['"a json string"', 'a json string'],
  ])('reads %s', (body, expected) => {
    expect(serverMessageOf(body)).toBe(expected);
  });

  it.each(['', '   ', '{}', '{"code":"X"}', '<html><body>502</body></html>', '{not json'])(
    'falls back to a generic sentence for %j',
    (body) => {
      expect(serverMessageOf(body)).toBe('the licensing service refused the request');
    },
  );

  it('cuts very long messages and removes a secret the server echoed', () => {
    expect(serverMessageOf('x'.repeat(2_000)).length).toBe(500);
    expect(serverMessageOf('{"message":"bad token s3cr3t-token"}', 's3cr3t-token')).toBe('bad token [redacted]');
  });
});

describe('error mapping: transport', () => {
  it('maps undici timeouts to their phase', () => {
    const connect = errorFromTransport(new undiciErrors.ConnectTimeoutError(), write);
    expect(connect).toBeInstanceOf(TimeoutError);
    expect(connect.message).toContain('connect timeout');
    expect(errorFromTransport(new undiciErrors.HeadersTimeoutError(), read).message).toContain('headers timeout');
    expect(errorFromTransport(new undiciErrors.BodyTimeoutError(), read).message).toContain('body timeout');
    expect(errorFromTransport(new Error('aborted'), read, 'body').message).toContain('body timeout');
  });

  it('knows which failures prove a write was never sent', () => {
    expect(errorFromTransport(new undiciErrors.ConnectTimeoutError(), write).outcomeUnknown).toBe(false);
    expect(errorFromTransport(withCode('refused', 'ECONNREFUSED'), write).outcomeUnknown).toBe(false);
    expect(errorFromTransport(new undiciErrors.HeadersTimeoutError(), write).outcomeUnknown).toBe(true);
    const reset = errorFromTransport(new undiciErrors.SocketError('other side closed'), write);
    expect(reset).toBeInstanceOf(ConnectionError);
    expect(reset.outcomeUnknown).toBe(true);
    expect(reset.message).toContain('connection reset');
    expect(errorFromTransport(withCode('reset', 'ECONNRESET'), read).outcomeUnknown).toBe(false);
  });

  it('describes connection failures by code, looking through causes', () => {
    const wrapped = Object.assign(new Error('fetch failed'), { cause: withCode('x', 'ECONNREFUSED') });
    expect(errorFromTransport(wrapped, read).message).toContain('connection refused');
    expect(errorFromTransport(new Error('odd'), read).message).toContain('network error');
  });
});
