import { describe, expect, it } from 'vitest';
import { createFaultSet } from '../../../local/sandbox/faults.js';

describe('fault rules', () => {
  it('spreads a rate evenly and deterministically', () => {
    const faults = createFaultSet([{ kind: '500', rate: 0.25 }]);
    const hits = Array.from({ length: 12 }, () => faults.plan('GET', '/v1/me').fault !== undefined);
    expect(hits.filter(Boolean)).toHaveLength(3);
    expect(hits).toEqual([false, false, false, true, false, false, false, true, false, false, false, true]);
  });

  it('stops after `times` hits and matches method and path', () => {
    const faults = createFaultSet([{ kind: 'reset', method: 'post', path: /license/g, times: 2 }]);
    expect(faults.plan('GET', '/v1/license/1').fault).toBeUndefined();
    expect(faults.plan('POST', '/v1/pool/1/license').fault).toEqual({ kind: 'reset', phase: 'before' });
    expect(faults.plan('POST', '/v1/pool/1/license').fault).toEqual({ kind: 'reset', phase: 'before' });
    expect(faults.plan('POST', '/v1/pool/1/license').fault).toBeUndefined();
  });

  it('adds up latency rules and takes the first other matching rule', () => {
    const faults = createFaultSet([
      { kind: 'latency', latencyMs: 100 },
      { kind: 'hang', path: /^\/v1\/me$/, phase: 'after' },
      { kind: 'latency', latencyMs: 50 },
      { kind: '500' },
    ]);
    expect(faults.plan('GET', '/v1/me')).toEqual({ latencyMs: 150, fault: { kind: 'hang', phase: 'after' } });
    expect(faults.plan('GET', '/v1/pools')).toEqual({ latencyMs: 150, fault: { kind: '500', phase: 'before' } });
    faults.clear();
    expect(faults.plan('GET', '/v1/me')).toEqual({ latencyMs: 0 });
  });
});
