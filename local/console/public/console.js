// The local console's page: one person's Slack. State arrives from the console's back end as
// Server-Sent Events; what the person does goes back as small JSON requests, which the back end
// turns into the signed requests Slack would send to the app.
import { renderBlocks, renderText } from './blocks.js';
import { renderMrkdwn } from './mrkdwn.js';

const $ = (id) => document.getElementById(id);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const store = {
  me: localStorage.getItem('console.me') ?? '',
  surface: JSON.parse(localStorage.getItem('console.surface') ?? '{"type":"channel","id":""}'),
  snapshot: undefined,
  history: JSON.parse(localStorage.getItem('console.history') ?? '[]'),
  historyAt: -1,
  draft: '',
  dismissed: Number(sessionStorage.getItem('console.dismissed') ?? '0'),
  /**
   * Element state by person, then by surface key (view id, or channel/ts of a message): what a person
   * typed in an open form stays theirs across a switch of "You are" and back.
   */
  values: new Map(),
  modalKey: '',
  modalError: '',
};
let source;

function valuesFor(key) {
  if (!store.values.has(store.me)) store.values.set(store.me, new Map());
  const mine = store.values.get(store.me);
  if (!mine.has(key)) mine.set(key, {});
  return mine.get(key);
}

async function post(path, body) {
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: store.me, ...body }),
    });
    return await res.json();
  } catch (error) {
    return {
      ok: false,
      error: `The console could not reach License Desk (${error.message}). Is npm start still running?`,
    };
  }
}

function connect() {
  source?.close();
  source = new EventSource(`/console/events?user=${encodeURIComponent(store.me)}`);
  source.addEventListener('state', (event) => {
    store.snapshot = JSON.parse(event.data);
    $('offline').hidden = true;
    render();
  });
  source.addEventListener('error', () => {
    $('offline').hidden = false;
  });
}

function names() {
  const s = store.snapshot;
  return {
    users: new Map([...s.users.map((u) => [u.id, u.name]), [s.botUserId, 'License Desk']]),
    channels: new Map(s.channels.map((c) => [c.id, c.name])),
  };
}

function confirmDialog(c) {
  return new Promise((resolve) => {
    const dialog = $('confirm');
    dialog.replaceChildren();
    const form = el('form', 'confirm');
    form.method = 'dialog';
    form.append(el('h2', '', c.title?.text ?? 'Are you sure?'));
    form.append(renderText(c.text, names(), 'div'));
    const buttons = el('div', 'modal-buttons');
    const deny = el('button', 'btn', c.deny?.text ?? 'Cancel');
    deny.value = 'deny';
    const ok = el('button', `btn ${c.style === 'danger' ? 'danger' : 'primary'}`, c.confirm?.text ?? 'Yes');
    ok.value = 'confirm';
    buttons.append(deny, ok);
    form.append(buttons);
    dialog.append(form);
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
    dialog.returnValue = '';
    dialog.showModal();
    ok.focus();
  });
}

function blockCtx(key, surface, extra = {}) {
  const s = store.snapshot;
  return {
    ...names(),
    userList: s.users,
    values: valuesFor(key),
    confirm: confirmDialog,
    onAction: (action) => post('/console/action', { surface, action, values: valuesFor(key) }),
    // An external_select's options, asked of the app as Slack would (block_suggestion); modals only.
    ...(surface.type === 'view'
      ? { loadOptions: (request) => post('/console/options', { surface, request, values: valuesFor(key) }) }
      : {}),
    ...extra,
  };
}

function render() {
  const s = store.snapshot;
  if (!s) return;
  renderSwitcher(s);
  renderSidebar(s);
  renderNotices(s);
  if (store.surface.type === 'home') renderHome(s);
  else renderChannel(s);
  renderModal(s);
}

function renderSwitcher(s) {
  const select = $('who');
  const people = s.users.filter((u) => u.role);
  if (select.options.length !== people.length) {
    select.replaceChildren(
      ...people.map((u) => {
        const o = el('option', '', `${u.realName} · ${u.role}`);
        o.value = u.id;
        return o;
      }),
    );
  }
  select.value = s.me;
  const me = s.users.find((u) => u.id === s.me);
  $('deactivate').textContent = me?.deleted ? 'Reactivate in Slack' : 'Deactivate in Slack';
}

function renderSidebar(s) {
  const list = $('channels');
  list.replaceChildren();
  const item = (label, surface, prefix) => {
    const li = el('li');
    const btn = el('button', 'nav-item');
    btn.type = 'button';
    btn.append(el('span', 'nav-prefix', prefix), document.createTextNode(label));
    const current = store.surface.type === surface.type && (surface.type === 'home' || store.surface.id === surface.id);
    if (current) btn.setAttribute('aria-current', 'page');
    btn.addEventListener('click', () => go(surface));
    li.append(btn);
    return li;
  };
  list.append(item('License Desk · Home', { type: 'home' }, '⌂'));
  for (const c of s.channels.filter((x) => x.kind === 'channel'))
    list.append(item(c.name, { type: 'channel', id: c.id }, '#'));
  for (const c of s.channels.filter((x) => x.kind === 'dm'))
    list.append(item('License Desk (DM)', { type: 'channel', id: c.id }, '●'));
}

function go(surface) {
  store.surface = surface;
  localStorage.setItem('console.surface', JSON.stringify(surface));
  if (surface.type === 'home') void post('/console/home', {});
  render();
  if (surface.type === 'channel') $('box').focus();
}

function renderNotices(s) {
  const box = $('notices');
  box.replaceChildren();
  const fresh = s.notices.filter((n) => n.seq > store.dismissed);
  for (const n of fresh.slice(-4)) {
    const div = el('div', `notice ${n.level}`);
    div.setAttribute('role', n.level === 'error' ? 'alert' : 'status');
    div.append(el('strong', '', n.level === 'error' ? 'Slack would not accept this' : 'Slack warning'));
    div.append(el('span', '', ` ${n.text}`));
    if (n.details) {
      const ul = el('ul');
      for (const d of n.details.slice(0, 6)) ul.append(el('li', '', d));
      div.append(ul);
    }
    box.append(div);
  }
  if (fresh.length > 0) {
    const dismiss = el('button', 'btn small', 'Dismiss');
    dismiss.type = 'button';
    dismiss.addEventListener('click', () => {
      store.dismissed = s.notices.at(-1).seq;
      sessionStorage.setItem('console.dismissed', String(store.dismissed));
      render();
    });
    box.append(dismiss);
  }
}

function renderChannel(s) {
  const channel = s.channels.find((c) => c.id === store.surface.id) ?? s.channels[0];
  store.surface = { type: 'channel', id: channel.id };
  $('title').textContent = channel.kind === 'dm' ? 'License Desk' : `# ${channel.name}`;
  $('alerts-now').hidden = !channel.alerts;
  $('digest-now').hidden = !channel.digest;
  $('home').hidden = true;
  $('messages').hidden = false;
  $('composer').hidden = false;
  $('box').placeholder = channel.kind === 'dm' ? 'Message License Desk' : `Message #${channel.name}`;
  const list = $('messages');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren();
  const msgs = s.messages.filter((m) => m.channel === channel.id);
  if (msgs.length === 0) {
    list.append(
      el(
        'p',
        'empty',
        channel.kind === 'dm'
          ? 'Nothing here yet. License Desk writes here when you export a CSV or run a bulk job.'
          : (channel.purpose ?? 'Nothing here yet.'),
      ),
    );
  }
  for (const m of msgs) list.append(renderMessage(m, s));
  if (atBottom || store.scrollDown) list.scrollTop = list.scrollHeight;
  store.scrollDown = false;
}

function renderMessage(m, s) {
  const bot = m.user === s.botUserId;
  const author = bot ? 'License Desk' : (s.users.find((u) => u.id === m.user)?.realName ?? m.user);
  const article = el('article', `message${m.ephemeralFor ? ' ephemeral' : ''}${m.threadTs ? ' in-thread' : ''}`);
  article.dataset.ts = m.ts;
  const avatar = el('div', `avatar${bot ? ' bot' : ''}`, bot ? 'LD' : author.slice(0, 1));
  avatar.setAttribute('aria-hidden', 'true');
  const body = el('div', 'message-body');
  const head = el('div', 'message-head');
  head.append(el('span', 'author', author));
  if (bot) head.append(el('span', 'app-badge', 'APP'));
  const time = el(
    'time',
    'ts',
    new Date(Number(m.ts) * 1000).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' }),
  );
  head.append(time);
  if (m.edited) head.append(el('span', 'edited', '(edited)'));
  body.append(head);
  if (m.ephemeralFor) body.append(el('div', 'only-you', 'Only visible to you'));
  if (m.threadTs) body.append(el('div', 'thread-note', 'reply in thread'));
  const key = `${m.channel}/${m.ts}`;
  const ctx = blockCtx(key, { type: 'message', channel: m.channel, ts: m.ts });
  if (m.blocks?.length) body.append(renderBlocks(m.blocks, ctx));
  else if (m.text) body.append(renderMrkdwn(m.text, ctx, el('div', 'text mrkdwn')));
  if (m.file) {
    const card = el('div', 'file');
    card.append(el('span', 'file-icon', 'CSV'));
    const info = el('div');
    const a = el('a', 'file-name', m.file.name);
    // The console hands a file only to a person who may see its message.
    a.href = `${m.file.url}?user=${encodeURIComponent(store.me)}`;
    a.download = m.file.name;
    info.append(a, el('div', 'file-size', `${(m.file.size / 1024).toFixed(1)} kB · Download`));
    card.append(info);
    body.append(card);
  }
  for (const w of m.warnings ?? []) body.append(el('div', 'message-warning', `Slack warning: ${w}`));
  article.append(avatar, body);
  return article;
}

function renderHome(s) {
  $('title').textContent = 'License Desk · Home';
  $('messages').hidden = true;
  $('composer').hidden = true;
  const home = $('home');
  home.hidden = false;
  home.replaceChildren();
  if (!s.home) {
    home.append(el('p', 'empty', 'Opening App Home…'));
    return;
  }
  const key = s.home.id;
  home.append(renderBlocks(s.home.view.blocks, blockCtx(key, { type: 'view', viewId: s.home.id })));
}

function renderModal(s) {
  const root = $('modal-root');
  const top = s.modals.at(-1);
  const key = top ? `${top.id}|${top.hash}|${JSON.stringify(top.errors ?? {})}|${s.modals.length}` : '';
  if (key === store.modalKey) return;
  const hadFocus = root.contains(document.activeElement);
  store.modalKey = key;
  root.replaceChildren();
  if (!top) {
    store.modalError = '';
    if (hadFocus) $('box').focus();
    return;
  }
  const v = top.view;
  const overlay = el('div', 'overlay');
  const dialog = el('div', 'modal');
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-labelledby', 'modal-title');
  const head = el('div', 'modal-head');
  if (s.modals.length > 1) {
    const back = el('button', 'icon-button', '←');
    back.type = 'button';
    back.setAttribute('aria-label', 'Back');
    back.addEventListener('click', () => closeTop(top, false));
    head.append(back);
  }
  const title = el('h2', '', v.title?.text ?? '');
  title.id = 'modal-title';
  head.append(title);
  const x = el('button', 'icon-button close-x', '×');
  x.type = 'button';
  x.setAttribute('aria-label', 'Close');
  x.addEventListener('click', () => closeTop(top, true));
  head.append(x);
  const form = el('form', 'modal-body');
  form.noValidate = true;
  const ctx = blockCtx(top.id, { type: 'view', viewId: top.id }, { errors: top.errors ?? {} });
  form.append(renderBlocks(v.blocks, ctx));
  const error = el('p', 'modal-error', store.modalError);
  error.setAttribute('role', 'alert');
  error.hidden = !store.modalError;
  const foot = el('div', 'modal-buttons');
  const cancel = el('button', 'btn', v.close?.text ?? 'Cancel');
  cancel.type = 'button';
  // clear_on_close: the close button closes the whole stack, as in Slack.
  cancel.addEventListener('click', () => closeTop(top, v.clear_on_close === true));
  foot.append(cancel);
  if (v.submit) {
    const submit = el('button', 'btn primary', v.submit.text);
    submit.type = 'submit';
    foot.append(submit);
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const submit = form.querySelector('button[type=submit]');
    if (submit) submit.disabled = true;
    store.modalError = '';
    error.hidden = true;
    const r = await post('/console/submit', { viewId: top.id, values: valuesFor(top.id) });
    if (!r.ok) {
      store.modalError = r.error ?? 'We had some trouble connecting. Try again?';
      error.textContent = store.modalError;
      error.hidden = false;
    }
    if (submit) submit.disabled = false;
  });
  dialog.append(head, form, error);
  form.append(foot);
  overlay.append(dialog);
  overlay.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !$('confirm').open) closeTop(top, true);
    // Focus stays inside the open modal, as in Slack.
    if (event.key === 'Tab') {
      const focusable = [...dialog.querySelectorAll('button, input, select, textarea')].filter((x) => !x.disabled);
      const first = focusable[0];
      const last = focusable.at(-1);
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  });
  root.append(overlay);
  const first = dialog.querySelector(
    '.has-error input, .has-error select, .has-error textarea, input, select, textarea',
  );
  (first ?? dialog.querySelector('button'))?.focus();
}

function closeTop(top, all) {
  void post('/console/close', { viewId: top.id, all, values: valuesFor(top.id) });
}

function setupComposer() {
  const box = $('box');
  const hint = $('hint');
  const showHint = () => {
    hint.hidden = !box.value.startsWith('/');
  };
  // The slash command's usage hint, as the manifest declares it (the server derives it from the table).
  void fetch('/console/usage')
    .then((r) => r.json())
    .then((u) => {
      hint.textContent = u.hint;
    });
  box.addEventListener('input', () => {
    showHint();
    store.historyAt = -1;
  });
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      $('composer').requestSubmit();
      return;
    }
    const h = store.history;
    if (event.key === 'ArrowUp' && (box.value === '' || store.historyAt >= 0) && h.length > 0) {
      event.preventDefault();
      if (store.historyAt < 0) store.draft = box.value;
      store.historyAt = Math.min(h.length - 1, store.historyAt + 1);
      box.value = h[h.length - 1 - store.historyAt];
      showHint();
    } else if (event.key === 'ArrowDown' && store.historyAt >= 0) {
      event.preventDefault();
      store.historyAt -= 1;
      box.value = store.historyAt < 0 ? store.draft : h[h.length - 1 - store.historyAt];
      showHint();
    } else if (event.key === 'Escape') {
      hint.hidden = true;
    }
  });
  $('composer').addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = box.value.trim();
    if (!text) return;
    store.history = [...store.history.filter((x) => x !== text), text].slice(-50);
    localStorage.setItem('console.history', JSON.stringify(store.history));
    store.historyAt = -1;
    box.value = '';
    showHint();
    store.scrollDown = true;
    const r = await post('/console/command', { channel: store.surface.id, text });
    $('composer-error').textContent = r.ok ? '' : (r.error ?? 'That did not reach License Desk.');
    // Nothing typed is lost: a command that did not go through stays in the box to fix or resend.
    if (!r.ok && box.value === '') {
      box.value = text;
      showHint();
    }
  });
}

// An open overflow menu closes when the person clicks elsewhere, as Slack's does.
document.addEventListener('click', (event) => {
  for (const menu of document.querySelectorAll('.menu:not([hidden])')) {
    if (!menu.parentElement.contains(event.target)) menu.hidden = true;
  }
});

// Not a person's click: a workspace admin deactivates (or reactivates) the member chosen above, and the
// app gets Slack's signed user_change event (docs/leavers-and-offers.md#leavers).
function setupDeactivate() {
  $('deactivate').addEventListener('click', async () => {
    const me = store.snapshot?.users.find((u) => u.id === store.me);
    const r = await post('/console/member', { deleted: !me?.deleted });
    $('composer-error').textContent = r.ok ? '' : r.error;
  });
}

function setupAlertsNow() {
  $('alerts-now').addEventListener('click', async () => {
    const r = await post('/console/alerts-now', {});
    $('composer-error').textContent = r.ok ? '' : r.error;
  });
}

// Not Slack: posts this week's digest now in its channel, instead of waiting for DIGEST_DAY.
function setupDigestNow() {
  $('digest-now').addEventListener('click', async () => {
    const r = await post('/console/digest-now', {});
    $('composer-error').textContent = r.ok ? '' : r.error;
  });
}

// Slack's shortcut menu (the lightning bolt by the message box): the app's global shortcuts, each sent
// as the signed `shortcut` payload Slack sends, with a trigger id for the form it opens.
function setupShortcuts() {
  const button = $('shortcuts-button');
  const menu = $('shortcuts-menu');
  menu.setAttribute('role', 'menu');
  void fetch('/console/shortcuts')
    .then((r) => r.json())
    .then((list) => {
      menu.replaceChildren(
        ...list.map((sc) => {
          const li = el('li');
          const choose = el('button', 'menu-item', sc.name);
          choose.type = 'button';
          choose.setAttribute('role', 'menuitem');
          choose.addEventListener('click', async () => {
            menu.hidden = true;
            button.setAttribute('aria-expanded', 'false');
            const r = await post('/console/shortcut', { callbackId: sc.callbackId });
            $('composer-error').textContent = r.ok ? '' : (r.error ?? 'That did not reach License Desk.');
          });
          li.append(choose);
          return li;
        }),
      );
    });
  button.addEventListener('click', () => {
    menu.hidden = !menu.hidden;
    button.setAttribute('aria-expanded', String(!menu.hidden));
  });
}

function setupSwitcher() {
  $('who').addEventListener('change', (event) => {
    store.me = event.target.value;
    localStorage.setItem('console.me', store.me);
    // The previous person's forms and dialogs are theirs: put them away now (they are back when the
    // switcher returns to that person, as Slack keeps a modal open on their own screen), and draw
    // nothing of theirs until the new person's state arrives.
    store.snapshot = undefined;
    store.modalKey = undefined;
    store.modalError = '';
    $('modal-root').replaceChildren();
    if ($('confirm').open) $('confirm').close();
    if (store.surface.type === 'home') void post('/console/home', {});
    connect();
  });
}

// "Ask Slackbot" (docs/slackbot.md): the tools Slack's assistant sees, called as the person shown,
// each request signed by the console's back end as Slack signs it; the answer's text and its blocks.
function setupSlackbot() {
  const open = el('button', 'btn small', 'Ask Slackbot');
  open.type = 'button';
  open.title = 'A console control: call License Desk’s Slackbot tools (MCP) as the person shown';
  $('digest-now').after(open);
  const panel = el('section', 'slackbot');
  panel.setAttribute('aria-label', 'Ask Slackbot');
  panel.hidden = true;
  $('notices').after(panel);
  const pick = el('select');
  const args = el('textarea');
  args.rows = 3;
  args.placeholder = '{"poolId": "2001"}';
  args.spellcheck = false;
  const call = el('button', 'btn small', 'Call');
  call.type = 'button';
  const out = el('div', 'slackbot-answer');
  panel.append(el('strong', '', 'Ask Slackbot: '), pick, args, call, out);
  const show = (r) => {
    out.replaceChildren();
    if (!r.ok && r.error) return out.append(el('p', 'composer-error', r.error));
    const result = r.answer?.result;
    if (!result) return out.append(el('p', 'composer-error', r.answer?.error?.message ?? `HTTP ${r.status}`));
    const text = (result.content ?? []).map((c) => c.text ?? '').join('\n');
    out.append(el('pre', result.isError ? 'composer-error' : '', text));
    const blocks = result._meta?.slack?.blocks;
    if (blocks?.length) {
      const ctx = {
        ...blockCtx('slackbot', { type: 'message', channel: '', ts: '' }),
        // A button in a tool's answer calls the tool it names (`tool:<name>`, its value the arguments).
        onAction: async (action) => {
          if (!action.action_id?.startsWith('tool:')) return;
          show(
            await post('/console/slackbot', {
              name: action.action_id.slice(5),
              arguments: JSON.parse(action.value ?? '{}'),
            }),
          );
        },
      };
      out.append(renderBlocks(blocks, ctx));
    }
  };
  open.addEventListener('click', async () => {
    panel.hidden = !panel.hidden;
    if (panel.hidden) return;
    const r = await post('/console/slackbot', {});
    const tools = r.answer?.result?.tools;
    if (!tools) return show(r);
    pick.replaceChildren(
      ...tools.map((t) => Object.assign(el('option', '', `${t.title ?? t.name} (${t.name})`), { value: t.name })),
    );
  });
  call.addEventListener('click', async () => {
    let parsed = {};
    try {
      parsed = args.value.trim() ? JSON.parse(args.value) : {};
    } catch {
      return show({ ok: false, error: 'The arguments must be JSON, e.g. {"poolId": "2001"}.' });
    }
    show(await post('/console/slackbot', { name: pick.value, arguments: parsed }));
  });
}

async function start() {
  setupComposer();
  setupSwitcher();
  setupAlertsNow();
  setupDeactivate();
  setupDigestNow();
  setupShortcuts();
  setupSlackbot();
  // The first person on the list (the license admin) unless the page remembers another.
  const probe = await fetch('/console/people').then((r) => r.json());
  if (!probe.some((u) => u.id === store.me)) store.me = probe[0]?.id ?? '';
  if (store.surface.type === 'home') void post('/console/home', {});
  connect();
}

void start();
