/**
 * The part of Block Kit that modals add (input blocks, selects, date pickers, radio buttons,
 * checkboxes, confirmation dialogs) and the modal view itself, typed here like kit.ts so builders
 * stay free of Slack packages. Limits: platform.md section 5 (title, submit and close ≤ 24 characters,
 * private_metadata ≤ 3000, options ≤ 100, option text and description ≤ 75).
 */
import { type Block, context, type PlainText, plain, section } from './kit.js';
import { type LimitWait, limitWaitText } from './limit-wait.js';
import { truncate } from './mrkdwn.js';

export interface OptionObject {
  text: PlainText;
  value: string;
  description?: PlainText;
}

export interface StaticSelect {
  type: 'static_select';
  action_id: string;
  options: OptionObject[];
  placeholder?: PlainText;
  initial_option?: OptionObject;
}

/** A menu whose options the app sends as the person types (a block_suggestion request; platform.md section 5). */
export interface ExternalSelect {
  type: 'external_select';
  action_id: string;
  placeholder?: PlainText;
  initial_option?: OptionObject;
  min_query_length?: number;
}

/** Several options picked from a fixed list (at most 100 options). */
export interface MultiStaticSelect {
  type: 'multi_static_select';
  action_id: string;
  options: OptionObject[];
  placeholder?: PlainText;
  initial_options?: OptionObject[];
}

export interface UsersSelect {
  type: 'users_select';
  action_id: string;
  placeholder?: PlainText;
  initial_user?: string;
}

export interface Datepicker {
  type: 'datepicker';
  action_id: string;
  placeholder?: PlainText;
  initial_date?: string;
}

export interface PlainTextInput {
  type: 'plain_text_input';
  action_id: string;
  placeholder?: PlainText;
  initial_value?: string;
  max_length?: number;
}

export interface RadioButtons {
  type: 'radio_buttons';
  action_id: string;
  options: OptionObject[];
  initial_option?: OptionObject;
}

export interface Checkboxes {
  type: 'checkboxes';
  action_id: string;
  options: OptionObject[];
  initial_options?: OptionObject[];
}

export type InputElement =
  | StaticSelect
  | MultiStaticSelect
  | ExternalSelect
  | UsersSelect
  | Datepicker
  | PlainTextInput
  | RadioButtons
  | Checkboxes;

export interface InputBlock {
  type: 'input';
  block_id: string;
  label: PlainText;
  element: InputElement;
  hint?: PlainText;
  optional?: boolean;
  /** Slack sends block_actions when the element changes (for a form that answers a pick at once). */
  dispatch_action?: boolean;
}

/** Checkboxes in an actions block: their state comes with every click in the view, and no submit is needed. */
export interface ChoiceActionsBlock {
  type: 'actions';
  block_id: string;
  elements: Checkboxes[];
}

export type ViewBlock = Block | InputBlock | ChoiceActionsBlock;

export interface ModalView {
  type: 'modal';
  callback_id: string;
  title: PlainText;
  blocks: ViewBlock[];
  submit?: PlainText;
  close?: PlainText;
  private_metadata?: string;
  notify_on_close?: boolean;
  /** Its close button closes the whole stack (a view pushed over a form that is done with). */
  clear_on_close?: boolean;
}

/** Modal title, submit and close: 24 characters each. */
export const MODAL_TEXT_MAX = 24;
export const OPTION_TEXT_MAX = 75;
export const PRIVATE_METADATA_MAX = 3000;

export const option = (text: string, value: string, description?: string): OptionObject => {
  const o: OptionObject = { text: plain(truncate(text, OPTION_TEXT_MAX)), value };
  if (description) o.description = plain(truncate(description, OPTION_TEXT_MAX));
  return o;
};

export function input(
  blockId: string,
  label: string,
  element: InputElement,
  extra: { hint?: string; optional?: boolean; dispatchAction?: boolean } = {},
): InputBlock {
  const block: InputBlock = { type: 'input', block_id: blockId, label: plain(truncate(label, 2000)), element };
  if (extra.hint) block.hint = plain(truncate(extra.hint, 2000));
  if (extra.optional) block.optional = true;
  if (extra.dispatchAction) block.dispatch_action = true;
  return block;
}

export interface ModalInput {
  callbackId: string;
  title: string;
  blocks: ViewBlock[];
  submit?: string;
  close?: string;
  privateMetadata?: string;
}

export function modal({ callbackId, title, blocks, submit, close, privateMetadata }: ModalInput): ModalView {
  const view: ModalView = {
    type: 'modal',
    callback_id: callbackId,
    title: plain(truncate(title, MODAL_TEXT_MAX)),
    blocks,
    close: plain(truncate(close ?? 'Close', MODAL_TEXT_MAX)),
  };
  if (submit) view.submit = plain(truncate(submit, MODAL_TEXT_MAX));
  if (privateMetadata !== undefined) view.private_metadata = privateMetadata;
  return view;
}

/**
 * Shown at once while the licensing API is read (the trigger_id lives 3 s; the read may take longer),
 * saying why when the rate limit makes the read wait.
 */
export function buildLoadingModal(callbackId: string, title: string, what: string, wait?: LimitWait): ModalView {
  return modal({
    callbackId,
    title,
    blocks: [
      section(`:hourglass_flowing_sand: ${what}…`),
      ...(wait ? [context(`:stopwatch: ${limitWaitText(wait)}`)] : []),
    ],
  });
}

export function compactView(blocks: (ViewBlock | undefined)[]): ViewBlock[] {
  return blocks.filter((b): b is ViewBlock => b !== undefined);
}
