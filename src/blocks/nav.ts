/**
 * What a navigation button leads to. The state travels in the button's value as compact JSON
 * (≤ 2000 chars); it only says which page to show, never who may see it: the role is checked again
 * on every click. Decoded (and validated) by src/slack/actions/nav-value.ts.
 */

export type NavTarget =
  | { v: 'pools'; n: number }
  | { v: 'pool'; p: string; n: number; i: 0 | 1 }
  | { v: 'list'; n: number; i: 0 | 1 }
  | { v: 'students'; n: number }
  | { v: 'courses'; n: number }
  | { v: 'show'; l: string };

export function encodeNav(target: NavTarget): string {
  return JSON.stringify(target);
}

/** Ten rows a page everywhere: readable, and far below 50 blocks per message. */
export const PAGE_SIZE = 10;
