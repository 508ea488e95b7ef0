import type { App } from '@slack/bolt';
import type { AppDeps } from '../deps.js';

/** Placeholder until the /licenses surfaces land; registers nothing. */
export function registerCommands(_app: App, _deps: AppDeps): void {}
