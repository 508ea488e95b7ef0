/**
 * The public face of this feature: all another feature may use of it (docs/architecture.md, "Between
 * features: the public face").
 */

export { askRefusalText } from './blocks/extensions.js';
export type { ExtensionRequest } from './domain/extensions.js';
export { EXTENSION_NOTICE_KINDS } from './domain/extensions.js';
export { extensionsFeature } from './slack/feature.js';
export type { ExtensionsFeature } from './slack/start.js';
export { composeExtensions } from './slack/start.js';
