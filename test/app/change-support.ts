/** The change flows' helpers live in test/support/change-flow.ts (the listener tests use them too). */
export * from '../support/change-flow.js';
