/**
 * Slack messages and modals as plain text for a terminal (`npm run try`): Block Kit read the way a
 * person would (headers, sections, fields, context, lists, inputs), mrkdwn made readable (entities
 * unescaped, `<url|label>` as `label (url)`, `<!date^…>` as a date, *bold* without its asterisks,
 * `:emoji:` as the emoji), and each button with what it does,
 * including the command that shows the same thing. Pure, and total: any payload gives some text.
 */
import { format } from 'date-fns/format';
import { formatDistanceToNowStrict } from 'date-fns/formatDistanceToNowStrict';
import { gemoji } from 'gemoji';
import { ActionId } from '../../src/kernel/blocks/ids.js';
import { decodeNav, type NavTarget } from '../../src/kernel/blocks/nav.js';

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asString = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Slack's date tokens (the ones that name a calendar day or a time), in the terminal's time zone. */
const DATE_TOKENS: Record<string, string> = {
  date_num: 'yyyy-MM-dd',
  date: 'MMMM do, yyyy',
  date_short: 'MMM d, yyyy',
  date_long: 'EEEE, MMMM do, yyyy',
  date_pretty: 'MMMM do, yyyy',
  date_short_pretty: 'MMM d, yyyy',
  date_long_pretty: 'EEEE, MMMM do, yyyy',
  time: 'HH:mm',
  time_secs: 'HH:mm:ss',
};

function slackDateText(spec: string, fallback: string): string {
  const [ts, template = '{date_short}'] = spec.split('^');
  const when = new Date(Number(ts) * 1000);
  if (!Number.isFinite(when.getTime())) return fallback;
  return template.replace(/\{(\w+)\}/g, (whole, token: string) => {
    if (token === 'ago') return formatDistanceToNowStrict(when, { addSuffix: true });
    const pattern = DATE_TOKENS[token];
    return pattern ? format(when, pattern) : whole;
  });
}

export function unescapeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Emoji by shortcode: gemoji's names (as the console uses), plus Slack's own where GitHub spells them differently. */
const EMOJI = new Map<string, string>();
for (const g of gemoji) for (const name of g.names) EMOJI.set(name, g.emoji);
for (const [alias, name] of [
  ['large_green_circle', 'green_circle'],
  ['large_yellow_circle', 'yellow_circle'],
  ['large_orange_circle', 'orange_circle'],
  ['large_red_circle', 'red_circle'],
  ['thumbsup', '+1'],
  ['thumbsdown', '-1'],
] as const) {
  const emoji = EMOJI.get(name);
  if (!EMOJI.has(alias) && emoji) EMOJI.set(alias, emoji);
}

/** `:tada:` -> 🎉; a shortcode nobody knows stays as typed. */
export function emojify(text: string): string {
  return text.replace(/:([a-z0-9_+'-]+):/g, (whole, name: string) => EMOJI.get(name) ?? whole);
}

function linkText(inner: string): string {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : inner.slice(bar + 1);
  if (target.startsWith('!date^')) return slackDateText(target.slice('!date^'.length), label ?? target);
  if (target.startsWith('!subteam^')) return label ?? '@group';
  if (target.startsWith('!')) return `@${target.slice(1)}`;
  if (target.startsWith('@')) return `@${label ?? target.slice(1)}`;
  if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
  if (target.startsWith('mailto:')) return label ?? target.slice('mailto:'.length);
  return label && label !== target ? `${label} (${target})` : target;
}

/** *bold*, _italic_ and ~struck~ as Slack reads them (markers at word edges), without the markers. */
const EMPHASIS = ['*', '_', '~'].map((m) => {
  const e = `\\${m}`;
  return new RegExp(`(^|[^\\w${e}])${e}(?=\\S)([^${e}\\n]*?\\S)${e}(?=[^\\w${e}]|$)`, 'g');
});

/**
 * mrkdwn -> readable text for a terminal: links and mentions as words (`<@U…|ada>` as @ada,
 * `<url|text>` as `text (url)`, `<!date^…>` as a date), emphasis markers gone, `:emoji:` as the emoji,
 * entities unescaped. Inline `code` is kept as it is, backticks included.
 */
export function mrkdwnToText(text: string): string {
  // Code spans and links are set aside first: nothing inside them is emphasis or an emoji.
  const kept: string[] = [];
  const keep = (piece: string) => `\uE000${kept.push(piece) - 1}\uE000`;
  let out = text.replace(/`[^`\n]+`/g, keep).replace(/<([^<>]+)>/g, (_whole, inner: string) => keep(linkText(inner)));
  for (const pattern of EMPHASIS) out = out.replace(pattern, '$1$2');
  out = emojify(out).replace(/\uE000(\d+)\uE000/g, (_whole, i: string) => kept[Number(i)] ?? '');
  return unescapeEntities(out);
}

function textOf(value: unknown): string {
  const t = asObject(value);
  const raw = asString(t.text);
  // plain_text shows :shortcodes: as emoji too, unless it says emoji: false.
  return t.type === 'mrkdwn' ? mrkdwnToText(raw) : t.emoji === false ? raw : emojify(raw);
}

function navCommand(target: NavTarget): string {
  const page = 'page' in target && target.page > 1 ? target.page : undefined;
  const all = 'includeInactive' in target && target.includeInactive ? ' all' : '';
  switch (target.view) {
    case 'pools':
    case 'students':
      return page ? `${target.view} ${page}` : target.view;
    case 'pool':
      return `pool ${target.poolId}${all}${page ? ` (page ${page})` : ''}`;
    case 'list':
      return `list${all}${page ? ` (page ${page})` : ''}`;
    case 'courses':
      return page ? `courses (page ${page})` : 'courses';
    case 'expiring':
      return `expiring ${target.days}${page ? ` (page ${page})` : ''}`;
    case 'show':
      return `show ${target.licenseId}`;
    case 'history': {
      const s = target.subject;
      const what = s.kind === 'email' ? s.email : s.kind === 'id' ? s.id : `<@${s.userId}>`;
      return `history ${what}${target.days ? ` ${target.days}` : ''}${page ? ` (page ${page})` : ''}`;
    }
  }
}

/** What pressing a button does, in words; with the command that does the same in `npm run try`. */
export function describeButton(actionId: string, value: string, url?: string): string {
  if (url) return `opens ${url}`;
  const nav = [
    ActionId.navPrevious,
    ActionId.navNext,
    ActionId.navToggleInactive,
    ActionId.poolLicenses,
    ActionId.licenseDetails,
  ] as string[];
  if (nav.includes(actionId)) {
    const target = decodeNav(value);
    return target ? `shows /licenses ${navCommand(target)}` : 'shows another page';
  }
  if (actionId === ActionId.poolAssign) return `opens the assign form for pool ${value} (try: assign ${value})`;
  if (actionId === ActionId.licenseChangeEndDate) {
    return `opens the end-date form for license ${value} (try: extend ${value})`;
  }
  if (actionId === ActionId.licenseRevoke) return `asks to confirm revoking license ${value} (try: revoke ${value})`;
  if (actionId === ActionId.historyExport) return 'sends the whole history as a CSV file to your DM';
  return `sends ${actionId}${value ? ` (${value.length > 40 ? `${value.slice(0, 40)}…` : value})` : ''}`;
}

function optionsText(element: Json): string {
  const options = asArray(element.options).map((o) => textOf(asObject(o).text));
  const groups = asArray(element.option_groups).flatMap((g) =>
    asArray(asObject(g).options).map((o) => textOf(asObject(o).text)),
  );
  const all = [...options, ...groups];
  if (all.length === 0) return '';
  const shown = all.slice(0, 8).join(' | ');
  return `: ${shown}${all.length > 8 ? ` | … (${all.length} in all)` : ''}`;
}

/** One interactive element on one line. */
export function elementText(value: unknown): string {
  const e = asObject(value);
  const type = asString(e.type);
  const placeholder = textOf(e.placeholder);
  switch (type) {
    case 'button': {
      const style = e.style === 'danger' ? ' (danger)' : e.style === 'primary' ? ' (primary)' : '';
      const what = describeButton(asString(e.action_id), asString(e.value), asString(e.url) || undefined);
      return `[${textOf(e.text)}]${style} → ${what}`;
    }
    case 'plain_text_input': {
      const initial = asString(e.initial_value);
      return `[text box${e.multiline ? ', several lines' : ''}${initial ? `: "${initial}"` : placeholder ? `: ${placeholder}` : ''}]`;
    }
    case 'email_text_input':
      return `[e-mail box${asString(e.initial_value) ? `: "${asString(e.initial_value)}"` : ''}]`;
    case 'datepicker':
      return `[date picker${asString(e.initial_date) ? `: ${asString(e.initial_date)}` : ''}]`;
    case 'users_select':
    case 'multi_users_select':
      return `[pick a Slack member${asString(e.initial_user) ? `: <@${asString(e.initial_user)}>` : ''}]`;
    case 'static_select':
    case 'multi_static_select': {
      const initial = textOf(asObject(e.initial_option).text);
      return `[menu${initial ? ` (chosen: ${initial})` : ''}${optionsText(e)}]`;
    }
    case 'external_select': {
      const initial = textOf(asObject(e.initial_option).text);
      return `[type-ahead menu${initial ? ` (chosen: ${initial})` : ''}: options come as you type]`;
    }
    case 'checkboxes':
    case 'radio_buttons': {
      const chosen = asArray(e.initial_options ?? (e.initial_option ? [e.initial_option] : [])).map((o) =>
        textOf(asObject(o).text),
      );
      const box = type === 'checkboxes' ? 'tick boxes' : 'choice';
      return `[${box}${optionsText(e)}${chosen.length > 0 ? ` (ticked: ${chosen.join(', ')})` : ''}]`;
    }
    case 'overflow':
      return `[… menu${optionsText(e)}]`;
    case 'image':
      return `[image: ${asString(e.alt_text)}]`;
    default:
      return `[${type || 'element'}${placeholder ? `: ${placeholder}` : ''}]`;
  }
}

function richText(value: unknown): string {
  const el = asObject(value);
  switch (el.type) {
    case 'text':
      return asString(el.text);
    case 'link':
      return el.text && el.text !== el.url ? `${asString(el.text)} (${asString(el.url)})` : asString(el.url);
    case 'user':
      return `@${asString(el.user_id)}`;
    case 'channel':
      return `#${asString(el.channel_id)}`;
    case 'emoji':
      return emojify(`:${asString(el.name)}:`);
    case 'broadcast':
      return `@${asString(el.range)}`;
    case 'date':
      return asString(el.fallback) || slackDateText(`${String(el.timestamp)}^${asString(el.format)}`, '');
    default:
      return asArray(el.elements).map(richText).join('');
  }
}

function richTextBlock(block: Json): string[] {
  return asArray(block.elements).flatMap((value) => {
    const el = asObject(value);
    const inner = () => asArray(el.elements).map(richText).join('');
    switch (el.type) {
      case 'rich_text_list': {
        const indent = '  '.repeat(Number(el.indent) || 0);
        return asArray(el.elements).map((item, i) => {
          const mark = el.style === 'ordered' ? `${i + 1}.` : '•';
          return `${indent}  ${mark} ${asArray(asObject(item).elements).map(richText).join('')}`;
        });
      }
      case 'rich_text_preformatted':
        return inner()
          .split('\n')
          .map((line) => `    ${line}`);
      case 'rich_text_quote':
        return inner()
          .split('\n')
          .map((line) => `  > ${line}`);
      default:
        return inner().split('\n');
    }
  });
}

/** Block Kit blocks as lines of text. */
export function blocksToLines(blocks: readonly unknown[]): string[] {
  const lines: string[] = [];
  for (const value of blocks) {
    const block = asObject(value);
    switch (block.type) {
      case 'header': {
        const title = textOf(block.text);
        lines.push('', title.toUpperCase(), '═'.repeat(Math.min(60, Math.max(3, title.length))));
        break;
      }
      case 'section': {
        if (block.text) lines.push(...textOf(block.text).split('\n'));
        for (const field of asArray(block.fields))
          lines.push(
            ...textOf(field)
              .split('\n')
              .map((l) => `  ${l}`),
          );
        if (block.accessory) lines.push(`  ${elementText(block.accessory)}`);
        break;
      }
      case 'context':
        lines.push(
          `  ${asArray(block.elements)
            .map((e) => (asObject(e).type === 'image' ? `[${asString(asObject(e).alt_text)}]` : textOf(e)))
            .join('  ')}`,
        );
        break;
      case 'divider':
        lines.push('────────────────────────────────────────');
        break;
      case 'actions':
        for (const e of asArray(block.elements)) lines.push(`  ${elementText(e)}`);
        break;
      case 'input': {
        const optional = block.optional ? ' (optional)' : '';
        lines.push(`${textOf(block.label)}${optional}: ${elementText(block.element)}`);
        if (block.hint) lines.push(`  ${textOf(block.hint)}`);
        break;
      }
      case 'rich_text':
        lines.push(...richTextBlock(block));
        break;
      case 'image':
        lines.push(`[image: ${asString(block.alt_text)}] (${asString(block.image_url)})`);
        break;
      default:
        lines.push(`[${asString(block.type) || 'unknown'} block]`);
    }
  }
  return lines;
}

/** A message (response_url post or chat.*): its blocks, or its text when it has none. */
export function messageToText(message: unknown): string {
  const m = asObject(message);
  const blocks = asArray(m.blocks);
  if (blocks.length === 0) return mrkdwnToText(asString(m.text) || '(an empty message)');
  return blocksToLines(blocks).join('\n').replace(/^\n+/, '');
}

/** A modal view: title, blocks, and its buttons. */
export function viewToText(view: unknown): string {
  const v = asObject(view);
  const buttons = [v.submit ? `[${textOf(v.submit)}]` : '', v.close ? `[${textOf(v.close)}]` : '']
    .filter(Boolean)
    .join(' ');
  const title = textOf(v.title);
  return [
    `┌─ ${title} ${'─'.repeat(Math.max(3, 40 - title.length))}`,
    ...blocksToLines(asArray(v.blocks))
      .flatMap((line) => line.split('\n'))
      .map((line) => `│ ${line}`),
    `└─ ${buttons || '(no buttons)'}`,
  ].join('\n');
}

/** True for a "working on it" message or a loading modal: the answer is still on its way. */
export function isInProgress(messageOrView: unknown): boolean {
  const blocks = asArray(asObject(messageOrView).blocks).filter((b) => {
    const text = asString(asObject(asArray(asObject(b).elements)[0]).text);
    return !(asObject(b).type === 'context' && text.includes('Sandbox data'));
  });
  const first = asObject(blocks[0]);
  const text = first.type === 'section' ? asString(asObject(first.text).text) : '';
  return blocks.length <= 2 && text.startsWith(':hourglass_flowing_sand:');
}

/**
 * The command text as Slack delivers it with should_escape on: &, < and > as entities, a known member's
 * `@name` as `<@U…|name>`, an e-mail address as `<mailto:…|…>`. Unknown `@names` stay as typed.
 */
export function escapeLikeSlack(text: string, users: readonly { id: string; name: string }[]): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped.replace(/(^|\s)(\S+)(?=\s|$)/g, (whole, before: string, word: string) => {
    if (word.startsWith('@')) {
      const user = users.find((u) => u.name.toLowerCase() === word.slice(1).toLowerCase());
      return user ? `${before}<@${user.id}|${user.name}>` : whole;
    }
    if (/^[^\s@&;]+@[^\s@&;]+\.[A-Za-z]{2,}$/.test(word)) return `${before}<mailto:${word}|${word}>`;
    return whole;
  });
}
