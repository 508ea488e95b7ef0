/**
 * Injected faults (FaultRule in types.ts). `rate` is applied deterministically, spread evenly over the
 * matching requests (rate 0.5 hits every second one, 0.25 every fourth), so tests never flake on chance.
 */
import type { FaultKind, FaultRule } from './types.js';

interface ActiveRule {
  rule: FaultRule;
  /** Error-diffusion accumulator for `rate`. */
  credit: number;
  hits: number;
}

export interface FaultPlan {
  /** Sum of the matching latency rules, in ms. */
  latencyMs: number;
  /** The first matching rule of another kind, if any. */
  fault?: { kind: Exclude<FaultKind, 'latency'>; phase: 'before' | 'after'; retryAfterSec?: number };
}

export interface FaultSet {
  add(rule: FaultRule): void;
  clear(): void;
  plan(method: string, path: string): FaultPlan;
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method !== undefined && rule.method.toUpperCase() !== method) return false;
  if (rule.path !== undefined) {
    rule.path.lastIndex = 0; // a /g or /y regexp would otherwise remember the previous match
    if (!rule.path.test(path)) return false;
  }
  return true;
}

/** Decides whether a matching request is hit, and spends one of `times` if so. */
function hits(active: ActiveRule): boolean {
  const { rule } = active;
  if (rule.times !== undefined && active.hits >= rule.times) return false;
  active.credit += Math.min(1, Math.max(0, rule.rate ?? 1));
  if (active.credit < 1 - 1e-9) return false;
  active.credit -= 1;
  active.hits += 1;
  return true;
}

export function createFaultSet(initial: readonly FaultRule[] = []): FaultSet {
  let rules: ActiveRule[] = [];
  const set: FaultSet = {
    add(rule) {
      rules.push({ rule, credit: 0, hits: 0 });
    },
    clear() {
      rules = [];
    },
    plan(method, path) {
      const plan: FaultPlan = { latencyMs: 0 };
      for (const active of rules) {
        if (!matches(active.rule, method, path)) continue;
        const { kind } = active.rule;
        if (kind === 'latency') {
          if (hits(active)) plan.latencyMs += Math.max(0, active.rule.latencyMs ?? 0);
        } else if (plan.fault === undefined && hits(active)) {
          plan.fault = { kind, phase: active.rule.phase ?? 'before' };
          if (active.rule.retryAfterSec !== undefined) plan.fault.retryAfterSec = active.rule.retryAfterSec;
        }
      }
      return plan;
    },
  };
  for (const rule of initial) set.add(rule);
  return set;
}
