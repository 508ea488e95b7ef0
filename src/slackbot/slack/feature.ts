/**
 * The Slackbot tools as a feature (docs/slackbot.md): POST /mcp is given to the Bolt app when it is
 * built (createSlackbot's routes, through the composition root), and bound to the finished app and
 * listeners' surface here, when the features register.
 */
import type { Feature } from '../../kernel/slack/feature.js';
import type { SlackbotPart } from './route.js';

export function slackbotFeature(part: SlackbotPart): Feature {
  return {
    name: 'slackbot',
    register: (app, surface) => {
      if (part.settings.on) part.bind(app, surface);
    },
  };
}
