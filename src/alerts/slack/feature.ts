/**
 * The alerts as the composition root sees them (kernel/slack/feature.ts): "Let it end" on an alert. The
 * daily check itself runs on the desk (home/slack/feature.ts).
 */
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { DeskActionId } from '../../kernel/blocks/ids.js';
import type { Feature } from '../../kernel/slack/feature.js';
import { createLetItEndHandler } from './alerts.js';

export function alertsFeature(): Feature {
  return {
    name: 'alerts',
    register(app, surface) {
      app.action<BlockAction<ButtonAction>>(DeskActionId.alertLetEnd, createLetItEndHandler(surface));
    },
  };
}
