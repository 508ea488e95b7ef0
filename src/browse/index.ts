/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export { getMe } from './services/account.js';
export { getLicenseDetails } from './services/licenses.js';
export { listPools } from './services/pools.js';
export { courses } from './slack/courses.js';
export { expiring } from './slack/expiring.js';
export { browseFeature } from './slack/feature.js';
export { find } from './slack/find.js';
export { list } from './slack/list.js';
export { me } from './slack/me.js';
export { pool } from './slack/pool.js';
export { pools } from './slack/pools.js';
export { answerRead } from './slack/read.js';
export { show } from './slack/show.js';
export { students } from './slack/students.js';
