/** What the course-request surfaces need: defined with the other dependencies in src/slack/deps.ts. */
export type { RequestsDeps } from '../deps.js';
