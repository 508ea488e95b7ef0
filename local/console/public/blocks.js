// Block Kit to DOM, for the local console: what the app really sent, drawn close to Slack's look.
// Interactive elements report to ctx.onAction (a block_actions click) and keep their state in
// ctx.values (block_id -> action_id -> the state Slack would send in state.values).
import { renderChart } from './charts.js';
import { emojify, renderMrkdwn, unescapeEntities } from './mrkdwn.js';

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

let uid = 0;
const nextId = (prefix) => `${prefix}-${++uid}`;

/** A text object: mrkdwn, or plain_text (with :emoji: when emoji is not false). */
export function renderText(obj, ctx, tag = 'span') {
  const node = el(tag, 'text');
  if (!obj || typeof obj.text !== 'string') return node;
  if (obj.type === 'mrkdwn') {
    node.classList.add('mrkdwn');
    if (obj.verbatim) node.textContent = unescapeEntities(obj.text);
    else renderMrkdwn(obj.text, ctx, node);
  } else {
    node.textContent = obj.emoji === false ? obj.text : emojify(obj.text);
  }
  return node;
}

const plain = (obj) => (obj && typeof obj.text === 'string' ? emojify(obj.text) : '');

export function renderBlocks(blocks, ctx) {
  const root = el('div', 'blocks');
  for (const block of blocks ?? []) root.append(renderBlock(block, ctx));
  return root;
}

function unknown(what) {
  const box = el('div', 'block unknown', `Slack would reject this: ${what}`);
  box.setAttribute('role', 'alert');
  return box;
}

function renderBlock(b, ctx) {
  switch (b?.type) {
    case 'header':
      return renderText(b.text, ctx, 'h3');
    case 'divider':
      return el('hr', 'divider');
    case 'section': {
      const box = el('div', 'block section');
      const body = el('div', 'section-body');
      if (b.text) body.append(renderText(b.text, ctx, 'div'));
      if (Array.isArray(b.fields)) {
        const fields = el('div', 'fields');
        for (const f of b.fields) fields.append(renderText(f, ctx, 'div'));
        body.append(fields);
      }
      box.append(body);
      if (b.accessory) {
        const acc = el('div', 'accessory');
        acc.append(renderElement(b.accessory, b, ctx, false));
        box.append(acc);
      }
      return box;
    }
    case 'context': {
      const box = el('div', 'block context');
      for (const e of b.elements ?? []) {
        if (e.type === 'image') box.append(image(e, 'context-image'));
        else box.append(renderText(e, ctx));
      }
      return box;
    }
    case 'actions': {
      const box = el('div', 'block actions');
      for (const e of b.elements ?? []) box.append(renderElement(e, b, ctx, false));
      return box;
    }
    case 'image': {
      const fig = el('figure', 'block image');
      if (b.title) fig.append(el('figcaption', '', plain(b.title)));
      fig.append(image(b));
      return fig;
    }
    case 'data_visualization':
      return renderChart(b);
    case 'rich_text': {
      const box = el('div', 'block rich-text');
      for (const e of b.elements ?? []) box.append(richElement(e, ctx));
      return box;
    }
    case 'input': {
      const box = el('div', 'block input');
      const id = nextId('input');
      const label = el('label', 'input-label', plain(b.label));
      label.htmlFor = id;
      if (b.optional) label.append(el('span', 'optional', ' (optional)'));
      box.append(label);
      box.append(renderElement(b.element, b, ctx, true, id));
      const error = ctx.errors?.[b.block_id];
      if (error) {
        const e = el('p', 'input-error', error);
        e.setAttribute('role', 'alert');
        box.classList.add('has-error');
        box.append(e);
      } else if (b.hint) {
        box.append(el('p', 'input-hint', plain(b.hint)));
      }
      return box;
    }
    default:
      return unknown(`unknown block type “${b?.type}”`);
  }
}

function image(e, className = '') {
  const img = el('img', className);
  img.alt = e.alt_text ?? '';
  if (typeof e.image_url === 'string' && /^(https?:|data:image\/)/.test(e.image_url)) img.src = e.image_url;
  return img;
}

function richElement(e, ctx) {
  switch (e.type) {
    case 'rich_text_section':
      return richInline(el('p', 'rt-section'), e.elements, ctx);
    case 'rich_text_preformatted':
      return richInline(el('pre', 'rt-pre'), e.elements, ctx);
    case 'rich_text_quote':
      return richInline(el('blockquote', 'rt-quote'), e.elements, ctx);
    case 'rich_text_list': {
      const list = el(e.style === 'ordered' ? 'ol' : 'ul', 'rt-list');
      for (const item of e.elements ?? []) list.append(richInline(el('li'), item.elements, ctx));
      return list;
    }
    default:
      return unknown(`unknown rich_text element “${e.type}”`);
  }
}

function richInline(parent, elements, ctx) {
  for (const e of elements ?? []) {
    let node;
    switch (e.type) {
      case 'text':
        node = el('span', '', e.text);
        break;
      case 'link':
        node = el('a', '', e.text ?? e.url);
        if (/^(https?|mailto):/.test(e.url)) node.href = e.url;
        node.target = '_blank';
        node.rel = 'noopener noreferrer';
        break;
      case 'user':
        node = el('span', 'mention', `@${ctx.users.get(e.user_id) ?? e.user_id}`);
        break;
      case 'usergroup':
        node = el('span', 'mention', `@${e.usergroup_id}`);
        break;
      case 'channel':
        node = el('span', 'mention', `#${ctx.channels.get(e.channel_id) ?? e.channel_id}`);
        break;
      case 'broadcast':
        node = el('span', 'mention broadcast', `@${e.range}`);
        break;
      case 'emoji':
        node = el(
          'span',
          'emoji',
          e.unicode ? String.fromCodePoint(...e.unicode.split('-').map((h) => Number.parseInt(h, 16))) : `:${e.name}:`,
        );
        break;
      case 'date':
        node = el('time', 'date', e.fallback ?? new Date(e.timestamp * 1000).toLocaleString());
        break;
      default:
        node = el('span', 'unknown-inline', `[${e.type}]`);
    }
    const s = e.style ?? {};
    if (s.code) node = wrap('code', node);
    if (s.bold) node = wrap('strong', node);
    if (s.italic) node = wrap('em', node);
    if (s.strike) node = wrap('del', node);
    parent.append(node);
  }
  return parent;
}

function wrap(tag, node) {
  const w = el(tag);
  w.append(node);
  return w;
}

/** The state Slack keeps for an element before anyone touches it. */
function initialState(e) {
  switch (e.type) {
    case 'plain_text_input':
    case 'email_text_input':
    case 'number_input':
    case 'url_text_input':
      return { type: e.type, value: e.initial_value ?? null };
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
      return { type: e.type, selected_option: e.initial_option ?? null };
    case 'users_select':
      return { type: e.type, selected_user: e.initial_user ?? null };
    case 'datepicker':
      return { type: e.type, selected_date: e.initial_date ?? null };
    case 'checkboxes':
      return { type: e.type, selected_options: e.initial_options ?? [] };
    default:
      return undefined;
  }
}

function stateOf(ctx, block, e) {
  if (!ctx.values[block.block_id]) ctx.values[block.block_id] = {};
  const byBlock = ctx.values[block.block_id];
  if (!byBlock[e.action_id]) {
    const init = initialState(e);
    if (init) byBlock[e.action_id] = init;
  }
  return byBlock[e.action_id];
}

/** A change in an input block only updates state; elsewhere (or with dispatch_action) Slack sends it. */
function changed(ctx, block, e, inInput, patch) {
  const state = stateOf(ctx, block, e);
  Object.assign(state, patch);
  if (!inInput || block.dispatch_action) {
    ctx.onAction({ type: e.type, action_id: e.action_id, block_id: block.block_id, ...patch });
  }
}

const options = (e) => [...(e.options ?? []), ...(e.option_groups ?? []).flatMap((g) => g.options ?? [])];

function renderElement(e, block, ctx, inInput, id = nextId('el')) {
  if (!e) return unknown('an element is missing');
  switch (e.type) {
    case 'button': {
      const btn = el('button', `btn${e.style ? ` ${e.style}` : ''}`, plain(e.text));
      btn.type = 'button';
      if (e.accessibility_label) btn.setAttribute('aria-label', e.accessibility_label);
      btn.addEventListener('click', async () => {
        if (e.url) window.open(e.url, '_blank', 'noopener');
        if (e.confirm && !(await ctx.confirm(e.confirm))) return;
        ctx.onAction({
          type: 'button',
          action_id: e.action_id,
          block_id: block.block_id,
          text: e.text,
          ...(e.value !== undefined ? { value: e.value } : {}),
          ...(e.style ? { style: e.style } : {}),
        });
      });
      return btn;
    }
    case 'overflow': {
      const wrapEl = el('div', 'overflow');
      const btn = el('button', 'btn overflow-button', '⋯');
      btn.type = 'button';
      btn.setAttribute('aria-label', 'More actions');
      btn.setAttribute('aria-haspopup', 'menu');
      const menu = el('ul', 'menu');
      menu.setAttribute('role', 'menu');
      menu.hidden = true;
      for (const o of e.options ?? []) {
        const item = el('li');
        const choose = el('button', 'menu-item', plain(o.text));
        if (o.description) choose.append(el('small', 'menu-description', plain(o.description)));
        choose.type = 'button';
        choose.setAttribute('role', 'menuitem');
        choose.addEventListener('click', async () => {
          menu.hidden = true;
          if (e.confirm && !(await ctx.confirm(e.confirm))) return;
          ctx.onAction({ type: 'overflow', action_id: e.action_id, block_id: block.block_id, selected_option: o });
        });
        item.append(choose);
        menu.append(item);
      }
      btn.addEventListener('click', () => {
        menu.hidden = !menu.hidden;
      });
      wrapEl.append(btn, menu);
      return wrapEl;
    }
    case 'static_select': {
      const select = el('select', 'select');
      select.id = id;
      const state = stateOf(ctx, block, e);
      select.append(placeholderOption(e));
      for (const o of options(e)) select.append(optionNode(o));
      select.value = state.selected_option?.value ?? '';
      select.addEventListener('change', async () => {
        const o = options(e).find((x) => x.value === select.value) ?? null;
        if (e.confirm && !(await ctx.confirm(e.confirm))) return;
        changed(ctx, block, e, inInput, { selected_option: o });
      });
      return select;
    }
    case 'external_select':
      return externalSelect(e, block, ctx, inInput, id);
    case 'users_select': {
      const select = el('select', 'select');
      select.id = id;
      const state = stateOf(ctx, block, e);
      select.append(placeholderOption(e));
      for (const u of ctx.userList) {
        const opt = el('option', '', `${u.realName} (@${u.name})`);
        opt.value = u.id;
        select.append(opt);
      }
      select.value = state.selected_user ?? '';
      select.addEventListener('change', () => changed(ctx, block, e, inInput, { selected_user: select.value || null }));
      return select;
    }
    case 'datepicker': {
      const input = el('input', 'datepicker');
      input.type = 'date';
      input.id = id;
      const state = stateOf(ctx, block, e);
      input.value = state.selected_date ?? '';
      input.addEventListener('change', () => changed(ctx, block, e, inInput, { selected_date: input.value || null }));
      return input;
    }
    case 'checkboxes':
    case 'radio_buttons': {
      const group = el('div', 'choices');
      group.id = id;
      group.setAttribute('role', e.type === 'checkboxes' ? 'group' : 'radiogroup');
      const state = stateOf(ctx, block, e);
      const name = nextId('choice');
      const chosen = () =>
        e.type === 'checkboxes'
          ? (state.selected_options ?? []).map((o) => o.value)
          : [state.selected_option?.value].filter(Boolean);
      for (const o of e.options ?? []) {
        const label = el('label', 'choice');
        const box = el('input');
        box.type = e.type === 'checkboxes' ? 'checkbox' : 'radio';
        box.name = name;
        box.value = o.value;
        box.checked = chosen().includes(o.value);
        box.addEventListener('change', () => {
          const picked = [...group.querySelectorAll('input')].filter((x) => x.checked).map((x) => x.value);
          const opts = (e.options ?? []).filter((x) => picked.includes(x.value));
          changed(
            ctx,
            block,
            e,
            inInput,
            e.type === 'checkboxes' ? { selected_options: opts } : { selected_option: opts[0] ?? null },
          );
        });
        const text = el('span', 'choice-text');
        text.append(renderText(o.text, ctx));
        if (o.description) text.append(el('small', 'choice-description', plain(o.description)));
        label.append(box, text);
        group.append(label);
      }
      return group;
    }
    case 'plain_text_input':
    case 'email_text_input':
    case 'number_input':
    case 'url_text_input': {
      const input = e.multiline ? el('textarea', 'text-input') : el('input', 'text-input');
      if (!e.multiline)
        input.type = e.type === 'email_text_input' ? 'email' : e.type === 'url_text_input' ? 'url' : 'text';
      if (e.multiline) input.rows = 4;
      input.id = id;
      if (e.placeholder) input.placeholder = plain(e.placeholder);
      if (e.max_length) input.maxLength = e.max_length;
      const state = stateOf(ctx, block, e);
      input.value = state.value ?? '';
      input.addEventListener('input', () => {
        state.value = input.value === '' ? null : input.value;
      });
      return input;
    }
    case 'image':
      return image(e, 'accessory-image');
    default:
      return unknown(`unknown element type “${e.type}”`);
  }
}

/** Options an external_select was last sent, by block and action id: a re-render keeps them. */
const suggested = new Map();

/**
 * An external_select: a search box and a menu. Typing asks the app for options through the console
 * (a signed block_suggestion, as Slack sends to the Options Load URL); min_query_length 0 asks at once.
 */
function externalSelect(e, block, ctx, inInput, id) {
  const wrapEl = el('div', 'external-select');
  if (!ctx.loadOptions) {
    wrapEl.append(unknown('this menu loads its options from the app, which the console asks for only in a modal'));
    return wrapEl;
  }
  const key = `${block.block_id}/${e.action_id}`;
  const state = stateOf(ctx, block, e);
  const query = el('input', 'text-input');
  query.type = 'search';
  query.placeholder = 'Type to search…';
  query.setAttribute('aria-label', `Search ${e.placeholder ? plain(e.placeholder) : 'options'}`);
  const select = el('select', 'select');
  select.id = id;
  const fill = (list) => {
    suggested.set(key, list);
    const chosen = state.selected_option;
    const shown = chosen && !list.some((o) => o.value === chosen.value) ? [chosen, ...list] : list;
    select.replaceChildren(placeholderOption(e));
    for (const o of shown) select.append(optionNode(o));
    select.value = chosen?.value ?? '';
  };
  fill(suggested.get(key) ?? []);
  let timer;
  const ask = () => {
    clearTimeout(timer);
    if (query.value.length < (e.min_query_length ?? 3)) return;
    timer = setTimeout(async () => {
      const answer = await ctx.loadOptions({ action_id: e.action_id, block_id: block.block_id, value: query.value });
      if (answer?.ok) fill(answer.options ?? []);
    }, 250);
  };
  query.addEventListener('input', ask);
  if (!suggested.has(key)) ask();
  select.addEventListener('change', () => {
    const list = [...(suggested.get(key) ?? []), ...(state.selected_option ? [state.selected_option] : [])];
    changed(ctx, block, e, inInput, { selected_option: list.find((o) => o.value === select.value) ?? null });
  });
  wrapEl.append(query, select);
  return wrapEl;
}

/**
 * One option of a select menu. Slack draws its description on a line below the text; a native menu
 * has one line per option, so the description follows the text there.
 */
function optionNode(o) {
  const opt = el('option', '', o.description ? `${plain(o.text)} — ${plain(o.description)}` : plain(o.text));
  opt.value = o.value;
  return opt;
}

function placeholderOption(e) {
  const opt = el('option', '', e.placeholder ? plain(e.placeholder) : 'Choose…');
  opt.value = '';
  return opt;
}
