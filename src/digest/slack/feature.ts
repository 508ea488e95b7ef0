/**
 * The weekly digest as the composition root sees it (kernel/slack/feature.ts): "Show holders" on a
 * digest always, and with records its post, its job and its stop.
 */
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { DeskActionId } from '../../kernel/blocks/ids.js';
import type { Feature } from '../../kernel/slack/feature.js';
import { DIGEST_NOTICE_KIND } from '../services/digest-schedule.js';
import { createShowHoldersHandler, type DigestFeature } from './digest.js';

export function digestFeature(composed: DigestFeature | undefined): Feature {
  const listeners: Feature = {
    name: 'digest',
    register(app, surface) {
      app.action<BlockAction<ButtonAction>>(DeskActionId.digestShowHolders, createShowHoldersHandler(surface));
    },
  };
  if (!composed) return listeners;
  return {
    ...listeners,
    notices: {
      [DIGEST_NOTICE_KIND]: async (client, notice) => {
        await composed.deliver(client, notice);
      },
    },
    start: (mode) => (mode === 'all' ? composed.start() : undefined),
    stop: () => composed.stop(),
  };
}
