// Slack mrkdwn to DOM, for the local console. Parsing is slack-message-parser's (served as shipped);
// emoji shortcodes come from gemoji. Dates (<!date^…>) are shown in the browser's time zone.

import { gemoji } from '/console/vendor/gemoji/index.js';
import { NodeType, parse } from '/console/vendor/slack-message-parser/mod.js';

const EMOJI = new Map();
for (const g of gemoji) for (const name of g.names) EMOJI.set(name, g.emoji);
// Slack's own names that GitHub's list spells differently.
for (const [alias, name] of [
  ['white_check_mark', 'white_check_mark'],
  ['large_green_circle', 'green_circle'],
  ['large_yellow_circle', 'yellow_circle'],
  ['large_orange_circle', 'orange_circle'],
  ['large_red_circle', 'red_circle'],
  ['thumbsup', '+1'],
  ['thumbsdown', '-1'],
]) {
  if (!EMOJI.has(alias) && EMOJI.has(name)) EMOJI.set(alias, EMOJI.get(name));
}

export function emojiFor(name) {
  return EMOJI.get(name);
}

/** Slack sends &amp; &lt; &gt; in text; the parser leaves them as they are. */
export function unescapeEntities(text) {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** :shortcode: to emoji in plain text (plain_text objects with emoji: true). */
export function emojify(text) {
  return text.replace(/:([a-z0-9_+-]+):/g, (whole, name) => EMOJI.get(name) ?? whole);
}

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const ORDINAL = (d) => {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = d % 100;
  return d + (s[(v - 20) % 10] || s[v] || s[0]);
};

/** Slack's date tokens, in the browser's own time zone. */
export function formatSlackDate(unixSeconds, format) {
  const d = new Date(Number(unixSeconds) * 1000);
  if (Number.isNaN(d.getTime())) return undefined;
  const part = (opts) => new Intl.DateTimeFormat(undefined, opts).format(d);
  const month = part({ month: 'long' });
  const day = ORDINAL(d.getDate());
  const year = d.getFullYear();
  const dayDiff = Math.round((startOfDay(d) - startOfDay(new Date())) / 86_400_000);
  const pretty = (fallback) =>
    dayDiff === 0 ? 'today' : dayDiff === -1 ? 'yesterday' : dayDiff === 1 ? 'tomorrow' : fallback;
  const secondsAgo = Math.round((Date.now() - d.getTime()) / 1000);
  const tokens = {
    date_num: `${year}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`,
    date: `${month} ${day}, ${year}`,
    date_short: part({ month: 'short', day: 'numeric', year: 'numeric' }),
    date_long: `${part({ weekday: 'long' })}, ${month} ${day}, ${year}`,
    date_pretty: pretty(`${month} ${day}, ${year}`),
    date_short_pretty: pretty(part({ month: 'short', day: 'numeric', year: 'numeric' })),
    date_long_pretty: pretty(`${part({ weekday: 'long' })}, ${month} ${day}, ${year}`),
    time: part({ hour: 'numeric', minute: '2-digit' }),
    time_secs: part({ hour: 'numeric', minute: '2-digit', second: '2-digit' }),
    ago: new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(
      ...(Math.abs(secondsAgo) < 3600
        ? [-Math.round(secondsAgo / 60), 'minute']
        : Math.abs(secondsAgo) < 86_400
          ? [-Math.round(secondsAgo / 3600), 'hour']
          : [-Math.round(secondsAgo / 86_400), 'day']),
    ),
  };
  return format.replace(/\{(\w+)\}/g, (whole, token) => tokens[token] ?? whole);
}

function startOfDay(d) {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

function labelText(label) {
  return label ? label.map((n) => n.text ?? n.source ?? '').join('') : '';
}

/**
 * Renders mrkdwn into `parent`. `ctx` names people and channels: { users: Map(id -> name),
 * channels: Map(id -> name) }.
 */
export function renderMrkdwn(text, ctx, parent = el('span', 'mrkdwn')) {
  appendNodes(parent, parse(text).children, ctx);
  return parent;
}

/**
 * The parser ends a code span only before a space or . , ] ) } ! ? - =, but Slack also before
 * : ; ' " / (as in "`/licenses me`: the account"); such spans come back as plain text and are drawn
 * as code here. A backtick inside a word (a`b`c) stays text, as in Slack.
 */
const LEFT_CODE = /(^|[\s([{"'])`([^`\n]+)`(?=[\s.,\])}!?\-=:;'"/]|$)/g;

function textWithCode(text) {
  const out = document.createDocumentFragment();
  let at = 0;
  for (const m of text.matchAll(LEFT_CODE)) {
    const start = m.index + m[1].length;
    out.append(document.createTextNode(unescapeEntities(text.slice(at, start))));
    out.append(el('code', '', unescapeEntities(m[2])));
    at = start + m[2].length + 2;
  }
  out.append(document.createTextNode(unescapeEntities(text.slice(at))));
  return out;
}

function appendNodes(parent, nodes, ctx) {
  for (const node of nodes) parent.append(renderNode(node, ctx));
}

function renderNode(node, ctx) {
  switch (node.type) {
    case NodeType.Text:
      return textWithCode(node.text);
    case NodeType.Bold:
      return withChildren(el('strong'), node.children, ctx);
    case NodeType.Italic:
      return withChildren(el('em'), node.children, ctx);
    case NodeType.Strike:
      return withChildren(el('del'), node.children, ctx);
    case NodeType.Code:
      return el('code', '', unescapeEntities(node.text));
    case NodeType.PreText:
      return el('pre', '', unescapeEntities(node.text));
    case NodeType.Quote:
      return withChildren(el('blockquote'), node.children, ctx);
    case NodeType.Emoji: {
      const emoji = EMOJI.get(node.name);
      const span = el('span', emoji ? 'emoji' : 'emoji unknown', emoji ?? `:${node.name}:`);
      span.title = `:${node.name}:`;
      return span;
    }
    case NodeType.UserLink: {
      const name = ctx.users.get(node.userID) ?? labelText(node.label) ?? node.userID;
      return el('span', 'mention', `@${name || node.userID}`);
    }
    case NodeType.ChannelLink: {
      const name = ctx.channels.get(node.channelID) ?? labelText(node.label);
      return el('span', 'mention', `#${name || node.channelID}`);
    }
    case NodeType.URL: {
      const a = el('a');
      const url = unescapeEntities(node.url);
      if (/^(https?|mailto):/i.test(url)) a.href = url;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      if (node.label?.length) appendNodes(a, node.label, ctx);
      else a.textContent = url.replace(/^mailto:/i, '');
      return a;
    }
    case NodeType.Command:
      return renderCommand(node);
    default:
      return document.createTextNode(node.source ?? '');
  }
}

function withChildren(parent, children, ctx) {
  appendNodes(parent, children, ctx);
  return parent;
}

function renderCommand(node) {
  const [first, ...rest] = node.arguments ?? [];
  switch (node.name) {
    case 'here':
    case 'channel':
    case 'everyone':
      return el('span', 'mention broadcast', `@${node.name}`);
    case 'subteam': {
      const label = labelText(node.label);
      return el('span', 'mention', label ? (label.startsWith('@') ? label : `@${label}`) : `@${first}`);
    }
    case 'date': {
      const formatted = first && rest[0] ? formatSlackDate(first, rest[0]) : undefined;
      const time = el('time', 'date', formatted ?? labelText(node.label));
      if (first) time.dateTime = new Date(Number(first) * 1000).toISOString();
      time.title = time.dateTime ?? '';
      if (rest[1] && /^https?:/.test(rest[1])) {
        const a = el('a');
        a.href = rest[1];
        a.append(time);
        return a;
      }
      return time;
    }
    default:
      return document.createTextNode(unescapeEntities(labelText(node.label) || node.source));
  }
}
