import { describe, expect, it } from 'vitest';
import { EVERY_POOL, inScope, poolsScope, withinScope } from '../../src/kernel/domain/scope.js';

describe('a role scope', () => {
  it('every pool lets any pool through', () => {
    expect(inScope(EVERY_POOL, 'pool-9')).toBe(true);
    expect(withinScope(EVERY_POOL, [{ p: 'a' }, { p: 'b' }], (x) => x.p)).toHaveLength(2);
  });
  it('chosen pools let only those through, and nothing without a pool', () => {
    const scope = poolsScope(['a']);
    expect(inScope(scope, 'a')).toBe(true);
    expect(inScope(scope, 'b')).toBe(false);
    expect(inScope(scope, undefined)).toBe(false);
    expect(withinScope(scope, [{ p: 'a' }, { p: 'b' }, { p: undefined }], (x) => x.p)).toEqual([{ p: 'a' }]);
  });
});
