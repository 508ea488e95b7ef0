/** Messages every surface shares: working, refusal, error, paging row, sandbox marker. */
import { ActionId } from './ids.js';
import {
  type ActionsBlock,
  actions,
  type Block,
  type ButtonElement,
  button,
  type ChartMessage,
  type ContextBlock,
  context,
  type SlackMessage,
  section,
} from './kit.js';
import { type LimitWait, limitWaitText } from './limit-wait.js';
import { LIMITS } from './limits.js';
import { escapeMrkdwn } from './mrkdwn.js';
import { encodeNav, type NavTarget } from './nav.js';

export const SANDBOX_MARKER = ':test_tube: Sandbox data — not real licenses';

const sandboxMarkerBlock = (): ContextBlock => context(SANDBOX_MARKER);

function isSandboxMarker(block: unknown): boolean {
  if (typeof block !== 'object' || block === null) return false;
  const b = block as { type?: unknown; elements?: { text?: unknown }[] };
  return b.type === 'context' && Array.isArray(b.elements) && b.elements[0]?.text === SANDBOX_MARKER;
}

/** Puts the sandbox marker on top, so nobody mistakes demo data for real licenses. */
export function withSandboxMarker(message: SlackMessage, sandbox: boolean): SlackMessage {
  if (!sandbox) return message;
  // Builders leave room for this block (they stay at or below 49 blocks).
  const blocks = [sandboxMarkerBlock(), ...message.blocks].slice(0, LIMITS.messageBlocks);
  return { text: `[Sandbox] ${message.text}`, blocks };
}

/**
 * The same marker as the first block of a modal view (views.open / update / push, or a submission's
 * ack). Idempotent. A modal holds at most 100 blocks (platform.md section 5); the modal builders stay
 * far below that (the largest, the bulk report, has under 20), and a view that is already full is
 * returned as it is rather than lose one of its own blocks (an input or the last line of a list).
 */
export function withSandboxMarkerView<V extends { blocks: readonly unknown[] }>(view: V, sandbox: boolean): V {
  if (!sandbox || isSandboxMarker(view.blocks[0]) || view.blocks.length >= LIMITS.viewBlocks) return view;
  return { ...view, blocks: [sandboxMarkerBlock(), ...view.blocks] };
}

/** "Working on it: reading pools…", and why it may take a while when the rate limit makes it wait. */
export function buildWorkingMessage(what: string, wait?: LimitWait): SlackMessage {
  const working = `:hourglass_flowing_sand: Working on it: ${escapeMrkdwn(what)}…`;
  if (!wait) return { text: working, blocks: [section(working)] };
  const why = limitWaitText(wait);
  return { text: `${working} ${why}`, blocks: [section(working), context(`:stopwatch: ${escapeMrkdwn(why)}`)] };
}

/** `whoToAsk` is mrkdwn from the role resolver (mentions), so it is not escaped. */
/** One sentence from present(): plain text, escaped here because a 400 carries the server's words. */
export function buildErrorMessage(sentence: string): SlackMessage {
  const text = escapeMrkdwn(sentence);
  return { text, blocks: [section(`:warning: ${text}`)] };
}

export function buildNoticeMessage(sentence: string): SlackMessage {
  const text = escapeMrkdwn(sentence);
  return { text, blocks: [section(`:information_source: ${text}`)] };
}

export interface Pager {
  previous?: NavTarget;
  next?: NavTarget;
  toggle?: { target: NavTarget; label: string };
}

/** Previous / Next / include-inactive, in one actions block; undefined when there is nothing to click. */
export function buildPagerBlock(pager: Pager): ActionsBlock | undefined {
  const els: ButtonElement[] = [];
  if (pager.previous) els.push(button(ActionId.navPrevious, '◀ Previous', encodeNav(pager.previous)));
  if (pager.next) els.push(button(ActionId.navNext, 'Next ▶', encodeNav(pager.next)));
  if (pager.toggle) els.push(button(ActionId.navToggleInactive, pager.toggle.label, encodeNav(pager.toggle.target)));
  return els.length > 0 ? actions(els) : undefined;
}

export function compact(blocks: (Block | undefined)[]): Block[] {
  return blocks.filter((b): b is Block => b !== undefined);
}

/** A refusal from the gate (src/kernel/slack/gate.ts refusalText): mrkdwn, it mentions whom to ask. */
export function buildLockedMessage(sentence: string): SlackMessage {
  return { text: sentence, blocks: [section(`:lock: ${sentence}`)] };
}

/** The sandbox marker on top, as withSandboxMarker does for other messages. */
export function withSandboxMarkerCharts(message: ChartMessage, sandbox: boolean): ChartMessage {
  if (!sandbox) return message;
  const marker = withSandboxMarker({ text: message.text, blocks: [] }, true);
  return { text: marker.text, blocks: [...marker.blocks, ...message.blocks].slice(0, 50) };
}
