import type { App } from '@slack/bolt';
import type { AppDeps } from '../deps.js';
import { COMMAND } from '../ids.js';
import { createLicensesCommandHandler } from './licenses.js';

/** Registration only: the handler lives in its own file. */
export function registerCommands(app: App, deps: AppDeps): void {
  app.command(COMMAND, createLicensesCommandHandler(deps));
}
