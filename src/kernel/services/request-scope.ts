/**
 * The scope of the person a request is for (docs/roles-and-approvals.md, "What a pool admin sees"). The
 * gate (kernel/slack/gate.ts) runs each listener it lets through inside the person's scope; the licensing
 * client the features are given (kernel/licensing/scoped.ts) narrows every read and refuses every write
 * outside it, so a surface reached through the gate shows and changes only that person's pools. Work
 * shared by everyone (the job runner's runs, the App Home snapshot) runs `unscoped`, whoever started it.
 * Outside any request (a job, the settler, a start-up step) the scope is every pool.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EVERY_POOL, type Scope } from '../domain/scope.js';

const current = new AsyncLocalStorage<Scope>();

/** Runs `work` for a person whose role covers `scope`. */
export function withScope<T>(scope: Scope, work: () => T): T {
  return current.run(scope, work);
}

/** Runs `work` over every pool: what it computes is shared by everyone, whoever asked for it. */
export function unscoped<T>(work: () => T): T {
  return current.run(EVERY_POOL, work);
}

/** The scope of the request this code runs for; every pool outside a request. */
export function currentScope(): Scope {
  return current.getStore() ?? EVERY_POOL;
}
