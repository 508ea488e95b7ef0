import type { App, GlobalShortcut } from '@slack/bolt';
import { CallbackId } from '../../blocks/ids.js';
import type { AppDeps } from '../deps.js';
import { createAssignShortcutHandler } from './assign-shortcut.js';

/** Registration only: the global shortcut of manifest.yml. */
export function registerShortcuts(app: App, deps: AppDeps): void {
  app.shortcut<GlobalShortcut>(CallbackId.assignShortcut, createAssignShortcutHandler(deps));
}
