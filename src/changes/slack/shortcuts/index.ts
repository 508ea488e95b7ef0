import type { App, GlobalShortcut } from '@slack/bolt';
import { CallbackId } from '../../../kernel/blocks/ids.js';
import type { Surface } from '../../../kernel/slack/state.js';
import { createAssignShortcutHandler } from './assign-shortcut.js';

/** Registration only: the global shortcut of manifest.yml. */
export function registerShortcuts(app: App, s: Surface): void {
  app.shortcut<GlobalShortcut>(CallbackId.assignShortcut, createAssignShortcutHandler(s));
}
