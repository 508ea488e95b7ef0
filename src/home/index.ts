/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */

export type { HomeView } from './blocks/home.js';
export { sectionsOf } from './blocks/home.js';
export type { Desk } from './services/desk.js';
export { createDesk } from './services/desk.js';
export type { RunningDesk } from './slack/desk.js';
export { type HomeFeature, homeFeature } from './slack/feature.js';
export type { HomeSections } from './slack/home.js';
export { showHome } from './slack/home.js';
