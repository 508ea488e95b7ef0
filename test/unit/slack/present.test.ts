import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConnectionError,
  ForbiddenError,
  InvalidResponseError,
  NotFoundError,
  QueueFullError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../../src/kernel/licensing/errors.js';
import { presentError } from '../../../src/kernel/slack/present.js';

const init = { endpoint: 'GET /v1/pools' };

describe('presentError', () => {
  it.each<[string, unknown, RegExp]>([
    ['401', new UnauthorizedError(init), /can't reach the licensing service.*let a license admin know/],
    ['403', new ForbiddenError(init), /can't reach the licensing service/],
    ['429', new RateLimitedError(12.2, init), /busy; please try again in about 13 s/],
    ['queue full', new QueueFullError(40, init), /busy; please try again in about 40 s/],
    [
      '400',
      new BadRequestError('End date beyond the pool end.', init),
      /refused this: End date beyond the pool end\.$/,
    ],
    ['500', new ServerError({ ...init, status: 503 }), /not answering; nothing was changed/],
    ['timeout', new TimeoutError('headers', init), /not answering; nothing was changed/],
    ['connection', new ConnectionError('ECONNREFUSED', init), /not answering; nothing was changed/],
    ['invalid response', new InvalidResponseError('bad json', init), /answered something unexpected/],
    ['an unclear write', new ServerError({ ...init, outcomeUnknown: true }), /may or may not have been made/],
    [
      'a write answered with an unreadable body',
      new InvalidResponseError('bad json', { ...init, outcomeUnknown: true }),
      /may or may not have been made/,
    ],
    ['a bug', new TypeError('x is undefined'), /Something went wrong inside License Desk/],
    ['a thrown string', 'boom', /Something went wrong/],
  ])('%s', (_name, error, sentence) => {
    const text = presentError(error);
    expect(text).toMatch(sentence);
    expect(text).not.toMatch(/at .*\.ts|Error:|GET \/v1/);
  });

  it('names the token setting to license admins only', () => {
    const admin = presentError(new UnauthorizedError(init), 'other', 'admin');
    expect(admin).toMatch(/token is no longer valid.*license web interface.*LICENSING_API_TOKEN/);
    expect(presentError(new ForbiddenError(init), 'other', 'admin')).toMatch(/lacks permission.*LICENSING_API_TOKEN/);
    for (const error of [new UnauthorizedError(init), new ForbiddenError(init)]) {
      expect(presentError(error)).not.toContain('LICENSING_API_TOKEN');
      expect(presentError(error, 'pool', 'other')).not.toMatch(/token/i);
    }
  });

  it('says which thing does not exist', () => {
    expect(presentError(new NotFoundError(init), 'pool')).toMatch(/no pool with that id.*\/licenses pools/);
    expect(presentError(new NotFoundError(init), 'license')).toMatch(/no license with that id/);
    expect(presentError(new NotFoundError(init))).toMatch(/no such pool or license/);
  });
});
