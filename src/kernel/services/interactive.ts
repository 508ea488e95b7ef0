import type { CallOptions } from '../licensing/types.js';

/** Every read here answers a person waiting in Slack, so it goes ahead of background work. */
export const INTERACTIVE: CallOptions = { priority: 'interactive' };
