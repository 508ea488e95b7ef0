/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export { getMe } from './services/account.js';
export { getLicenseDetails } from './services/licenses.js';
export { listPools } from './services/pools.js';
export { answerRead } from './slack/read.js';
