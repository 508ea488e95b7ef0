import type { App } from '@slack/bolt';
import { COMMAND } from '../../blocks/ids.js';
import type { AppDeps } from '../deps.js';
import { createLicensesCommandHandler } from './licenses.js';

/** Registration only: the handler lives in its own file. */
export function registerCommands(app: App, deps: AppDeps): void {
  app.command(COMMAND, createLicensesCommandHandler(deps));
}
