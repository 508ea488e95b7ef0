import type { App, GlobalShortcut } from '@slack/bolt';
import type { AppDeps } from '../deps.js';
import { CallbackId } from '../ids.js';
import { createAssignShortcutHandler } from './assign-shortcut.js';

/** Registration only: the global shortcut of manifest.yml. */
export function registerShortcuts(app: App, deps: AppDeps): void {
  app.shortcut<GlobalShortcut>(CallbackId.assignShortcut, createAssignShortcutHandler(deps));
}
