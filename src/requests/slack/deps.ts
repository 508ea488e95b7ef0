/** What the course-request surfaces need: defined with the other dependencies in src/kernel/slack/deps.ts. */
export type { RequestsDeps } from '../../kernel/slack/deps.js';
