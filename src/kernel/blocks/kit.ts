/**
 * The small part of Block Kit License Desk uses, typed here so builders stay free of Slack packages.
 * The shapes are structurally compatible with @slack/types (Bolt's respond() accepts them).
 */

export interface PlainText {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}

export interface MrkdwnText {
  type: 'mrkdwn';
  text: string;
  verbatim?: boolean;
}

export type TextObject = PlainText | MrkdwnText;

/** Slack's own "are you sure?" dialog on a button: nothing reaches the app until it is confirmed. */
export interface ConfirmDialog {
  title: PlainText;
  text: MrkdwnText | PlainText;
  confirm: PlainText;
  deny: PlainText;
  style?: 'primary' | 'danger';
}

export interface ButtonElement {
  type: 'button';
  action_id: string;
  text: PlainText;
  value?: string;
  style?: 'primary' | 'danger';
  accessibility_label?: string;
  confirm?: ConfirmDialog;
}

export interface SectionBlock {
  type: 'section';
  block_id?: string;
  text?: MrkdwnText | PlainText;
  fields?: TextObject[];
  accessory?: ButtonElement;
}

export interface HeaderBlock {
  type: 'header';
  block_id?: string;
  text: PlainText;
}

export interface ContextBlock {
  type: 'context';
  block_id?: string;
  elements: TextObject[];
}

export interface ActionsBlock {
  type: 'actions';
  block_id?: string;
  elements: ButtonElement[];
}

export interface DividerBlock {
  type: 'divider';
  block_id?: string;
}

export type Block = SectionBlock | HeaderBlock | ContextBlock | ActionsBlock | DividerBlock;

/** A labelled value of a chart: a pie's segment, or a point of a series. */
export interface ChartValue {
  label: string;
  value: number;
}

/**
 * Slack's chart block (docs/digest.md): messages only, at most 2 per message, title up to 50
 * characters. Not in `Block`, so that no Home tab or modal builder can hold one; a message that may
 * carry charts is a `ChartMessage`.
 */
export interface DataVisualizationBlock {
  type: 'data_visualization';
  block_id?: string;
  title: string;
  chart:
    | { type: 'pie'; segments: ChartValue[] }
    | {
        type: 'bar' | 'area' | 'line';
        series: { name: string; data: ChartValue[] }[];
        axis_config: { categories: string[]; x_label?: string; y_label?: string };
      };
}

/** A message whose blocks may include charts (chat.postMessage, postEphemeral, a response_url). */
export interface ChartMessage {
  text: string;
  blocks: (Block | DataVisualizationBlock)[];
}

/** A message for respond(): `text` is the notification and screen-reader fallback (mrkdwn, escaped). */
export interface SlackMessage {
  text: string;
  blocks: Block[];
}

export const plain = (text: string): PlainText => ({ type: 'plain_text', text, emoji: true });
export const mrkdwn = (text: string): MrkdwnText => ({ type: 'mrkdwn', text });

export const section = (text: string, accessory?: ButtonElement): SectionBlock =>
  accessory ? { type: 'section', text: mrkdwn(text), accessory } : { type: 'section', text: mrkdwn(text) };

export const header = (text: string): HeaderBlock => ({ type: 'header', text: plain(text) });
export const context = (...texts: string[]): ContextBlock => ({ type: 'context', elements: texts.map(mrkdwn) });
export const divider = (): DividerBlock => ({ type: 'divider' });
export const actions = (elements: ButtonElement[], blockId?: string): ActionsBlock =>
  blockId ? { type: 'actions', block_id: blockId, elements } : { type: 'actions', elements };

export function button(actionId: string, text: string, value?: string, style?: 'primary' | 'danger'): ButtonElement {
  const b: ButtonElement = { type: 'button', action_id: actionId, text: plain(text) };
  if (value !== undefined) b.value = value;
  if (style) b.style = style;
  return b;
}
