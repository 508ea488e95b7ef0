/**
 * Slack's Block Kit limits (docs/platform.md section 5) and a checker for whole payloads.
 * Builders use the numbers to truncate and page; tests run every payload through checkBlockKitLimits.
 * The checker takes plain JSON (`unknown`) so it can also judge what a fake Slack recorded.
 */

export const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  blockId: 255,
  actionId: 255,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  accessibilityLabel: 75,
  optionText: 75,
  optionValue: 150,
  overflowOptions: 5,
  selectOptions: 100,
  placeholder: 150,
  optionDescription: 75,
  /** radio_buttons and checkboxes */
  choiceOptions: 10,
  inputLabel: 2000,
  modalText: 24,
  privateMetadata: 3000,
  callbackId: 255,
  /** views.open / update / push answer view_too_large above 250 kB (platform.md section 3). */
  viewJson: 250_000,
  /** Top-level `text` renders best at up to 4,000 characters (truncated above 40,000). */
  fallbackText: 4000,
  /** Undocumented: Slack answers msg_blocks_too_long near 13.2k characters of block text; stay well below. */
  totalBlockText: 12_000,
  /**
   * data_visualization, Slack's limits (docs/digest.md, "Charts"): messages only, 2 a message, a title
   * of 50 characters, at most 20 categories on the x axis of a bar, line or area chart, a series name
   * of 20 characters, a value of every series for every category, at most 6 pie segments.
   */
  chartsPerMessage: 2,
  chartTitle: 50,
  chartCategories: 20,
  chartSeriesName: 20,
  chartSegments: 6,
  /** Our own bound, inside Slack's: few series keep every chart readable. */
  chartSeries: 4,
} as const;

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const len = (s: string): number => Array.from(s).length;

class Checker {
  readonly problems: string[] = [];
  totalText = 0;
  charts = 0;

  constructor(readonly surface: 'message' | 'view' = 'message') {}

  problem(path: string, what: string): void {
    this.problems.push(`${path}: ${what}`);
  }

  text(path: string, value: unknown, max: number, kinds: readonly string[] = ['plain_text', 'mrkdwn']): void {
    if (!isObj(value)) {
      this.problem(path, 'missing text object');
      return;
    }
    if (typeof value.type !== 'string' || !kinds.includes(value.type)) {
      this.problem(path, `text type ${String(value.type)} not allowed (${kinds.join(', ')})`);
      return;
    }
    if (typeof value.text !== 'string' || value.text.length === 0) {
      this.problem(path, 'empty text');
      return;
    }
    this.totalText += len(value.text);
    if (len(value.text) > max) this.problem(path, `text is ${len(value.text)} chars, limit ${max}`);
  }

  string(path: string, value: unknown, max: number, required: boolean): void {
    if (value === undefined && !required) return;
    if (typeof value !== 'string' || value.length === 0) {
      this.problem(path, 'missing or empty string');
      return;
    }
    if (len(value) > max) this.problem(path, `is ${len(value)} chars, limit ${max}`);
  }

  option(path: string, o: unknown): void {
    if (!isObj(o)) {
      this.problem(path, 'not an option object');
      return;
    }
    this.text(`${path}.text`, o.text, LIMITS.optionText);
    this.string(`${path}.value`, o.value, LIMITS.optionValue, false);
    if (o.description !== undefined) this.text(`${path}.description`, o.description, LIMITS.optionDescription);
  }

  element(path: string, el: unknown): string | undefined {
    if (!isObj(el)) {
      this.problem(path, 'not an element');
      return undefined;
    }
    this.string(`${path}.action_id`, el.action_id, LIMITS.actionId, false);
    if (el.type === 'button') {
      this.text(`${path}.text`, el.text, LIMITS.buttonText, ['plain_text']);
      this.string(`${path}.value`, el.value, LIMITS.buttonValue, false);
      this.string(`${path}.url`, el.url, LIMITS.buttonUrl, false);
      this.string(`${path}.accessibility_label`, el.accessibility_label, LIMITS.accessibilityLabel, false);
    }
    if (
      el.type === 'overflow' ||
      el.type === 'static_select' ||
      el.type === 'radio_buttons' ||
      el.type === 'checkboxes'
    ) {
      const max =
        el.type === 'overflow'
          ? LIMITS.overflowOptions
          : el.type === 'static_select'
            ? LIMITS.selectOptions
            : LIMITS.choiceOptions;
      const options = Array.isArray(el.options) ? el.options : [];
      if (options.length > max) this.problem(`${path}.options`, `${options.length} options, limit ${max}`);
      for (const [i, o] of options.entries()) this.option(`${path}.options[${i}]`, o);
    }
    if (el.placeholder !== undefined) this.text(`${path}.placeholder`, el.placeholder, LIMITS.placeholder);
    if (el.initial_option !== undefined) this.option(`${path}.initial_option`, el.initial_option);
    if (el.initial_date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(el.initial_date))) {
      this.problem(`${path}.initial_date`, 'not YYYY-MM-DD');
    }
    return typeof el.action_id === 'string' ? el.action_id : undefined;
  }

  /** A chart block: messages only (never App Home or a modal), within Slack's limits and our bounds. */
  chart(path: string, b: Json): void {
    this.charts++;
    if (this.surface !== 'message')
      this.problem(path, 'data_visualization is for messages only, not views (Home, modals)');
    this.string(`${path}.title`, b.title, LIMITS.chartTitle, true);
    const chart = b.chart;
    if (!isObj(chart)) {
      this.problem(`${path}.chart`, 'missing chart');
      return;
    }
    const number = (p: string, v: unknown) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) this.problem(p, 'value is not a finite number');
    };
    if (chart.type === 'pie') {
      const segments = Array.isArray(chart.segments) ? chart.segments : [];
      if (segments.length === 0 || segments.length > LIMITS.chartSegments) {
        this.problem(`${path}.chart.segments`, `${segments.length} segments, allowed 1–${LIMITS.chartSegments}`);
      }
      for (const [i, s] of segments.entries()) {
        this.string(`${path}.chart.segments[${i}].label`, isObj(s) ? s.label : undefined, LIMITS.optionText, true);
        number(`${path}.chart.segments[${i}].value`, isObj(s) ? s.value : undefined);
      }
      return;
    }
    if (chart.type !== 'bar' && chart.type !== 'area' && chart.type !== 'line') {
      this.problem(`${path}.chart.type`, `unknown chart type ${String(chart.type)}`);
      return;
    }
    const axis = isObj(chart.axis_config) ? chart.axis_config : undefined;
    const categories = axis && Array.isArray(axis.categories) ? axis.categories : [];
    if (categories.length === 0 || categories.length > LIMITS.chartCategories) {
      this.problem(
        `${path}.chart.axis_config.categories`,
        `${categories.length} categories, allowed 1–${LIMITS.chartCategories}`,
      );
    }
    const series = Array.isArray(chart.series) ? chart.series : [];
    if (series.length === 0 || series.length > LIMITS.chartSeries) {
      this.problem(`${path}.chart.series`, `${series.length} series, allowed 1–${LIMITS.chartSeries}`);
    }
    if (new Set(categories).size !== categories.length) {
      this.problem(`${path}.chart.axis_config.categories`, 'categories repeat');
    }
    const names: unknown[] = [];
    for (const [i, s] of series.entries()) {
      const p = `${path}.chart.series[${i}]`;
      const name = isObj(s) ? s.name : undefined;
      names.push(name);
      this.string(`${p}.name`, name, LIMITS.chartSeriesName, true);
      const data = isObj(s) && Array.isArray(s.data) ? s.data : [];
      if (data.length === 0) this.problem(`${p}.data`, 'no points');
      const labels: unknown[] = [];
      for (const [j, point] of data.entries()) {
        const label = isObj(point) ? point.label : undefined;
        labels.push(label);
        if (typeof label !== 'string' || !categories.includes(label)) {
          this.problem(`${p}.data[${j}].label`, `${String(label)} is not one of the categories`);
        }
        number(`${p}.data[${j}].value`, isObj(point) ? point.value : undefined);
      }
      // Slack wants a value of every series for every category, once.
      const missing = categories.filter((c) => !labels.includes(c));
      if (missing.length > 0) {
        this.problem(`${p}.data`, `no value for ${missing.length} of the ${categories.length} categories`);
      }
      if (new Set(labels).size !== labels.length) this.problem(`${p}.data`, 'a category has two values');
    }
    if (new Set(names).size !== names.length) this.problem(`${path}.chart.series`, 'series names repeat');
  }

  block(path: string, b: unknown): void {
    if (!isObj(b)) {
      this.problem(path, 'not a block');
      return;
    }
    this.string(`${path}.block_id`, b.block_id, LIMITS.blockId, false);
    switch (b.type) {
      case 'section': {
        if (b.text === undefined && b.fields === undefined) this.problem(path, 'section needs text or fields');
        if (b.text !== undefined) this.text(`${path}.text`, b.text, LIMITS.sectionText);
        if (b.fields !== undefined) {
          const fields = Array.isArray(b.fields) ? b.fields : [];
          if (fields.length > LIMITS.sectionFields) this.problem(`${path}.fields`, `${fields.length} fields, limit 10`);
          for (const [i, f] of fields.entries()) this.text(`${path}.fields[${i}]`, f, LIMITS.fieldText);
        }
        if (b.accessory !== undefined) this.element(`${path}.accessory`, b.accessory);
        return;
      }
      case 'header': {
        this.text(`${path}.text`, b.text, LIMITS.headerText, ['plain_text']);
        return;
      }
      case 'context': {
        const els = Array.isArray(b.elements) ? b.elements : [];
        if (els.length === 0 || els.length > LIMITS.contextElements) {
          this.problem(`${path}.elements`, `${els.length} elements, allowed 1–${LIMITS.contextElements}`);
        }
        for (const [i, e] of els.entries()) {
          if (!(isObj(e) && e.type === 'image')) this.text(`${path}.elements[${i}]`, e, LIMITS.contextText);
        }
        return;
      }
      case 'actions': {
        const els = Array.isArray(b.elements) ? b.elements : [];
        if (els.length === 0 || els.length > LIMITS.actionsElements) {
          this.problem(`${path}.elements`, `${els.length} elements, allowed 1–${LIMITS.actionsElements}`);
        }
        const ids = els.map((e, i) => this.element(`${path}.elements[${i}]`, e)).filter((id) => id !== undefined);
        if (new Set(ids).size !== ids.length) this.problem(path, 'action_ids repeat inside one block');
        return;
      }
      case 'divider':
        return;
      case 'data_visualization': {
        this.chart(path, b);
        return;
      }
      case 'input': {
        // Modals only (and inline errors are keyed by these block_ids, platform.md section 3).
        this.string(`${path}.block_id`, b.block_id, LIMITS.blockId, true);
        this.text(`${path}.label`, b.label, LIMITS.inputLabel, ['plain_text']);
        if (b.hint !== undefined) this.text(`${path}.hint`, b.hint, LIMITS.inputLabel, ['plain_text']);
        if (!isObj(b.element)) this.problem(`${path}.element`, 'input block without element');
        else this.element(`${path}.element`, b.element);
        return;
      }
      default: {
        this.problem(path, `unexpected block type ${String(b.type)}`);
        return;
      }
    }
  }
}

/** Every way the message breaks Slack's limits, as readable strings; empty when it is fine. */
export function checkBlockKitLimits(message: unknown, surface: 'message' | 'view' = 'message'): string[] {
  const c = new Checker(surface);
  if (!isObj(message)) return ['message: not an object'];
  const blocks = message.blocks;
  if (blocks !== undefined && !Array.isArray(blocks)) return ['blocks: not an array'];
  if (surface === 'message') {
    if (typeof message.text !== 'string' || message.text.trim() === '') c.problem('text', 'no text fallback');
    else if (len(message.text) > LIMITS.fallbackText) c.problem('text', `fallback is ${len(message.text)} chars`);
  }
  const list = blocks ?? [];
  const max = surface === 'message' ? LIMITS.messageBlocks : LIMITS.viewBlocks;
  if (list.length > max) c.problem('blocks', `${list.length} blocks, limit ${max}`);
  for (const [i, b] of list.entries()) c.block(`blocks[${i}]`, b);
  if (c.charts > LIMITS.chartsPerMessage) {
    c.problem('blocks', `${c.charts} data_visualization blocks, limit ${LIMITS.chartsPerMessage} per message`);
  }
  const blockIds = list.flatMap((b) => (isObj(b) && typeof b.block_id === 'string' ? [b.block_id] : []));
  if (new Set(blockIds).size !== blockIds.length) c.problem('blocks', 'block_ids repeat');
  // msg_blocks_too_long is a message limit; a view is bounded by its 250 kB instead (checkModalLimits).
  if (surface === 'message' && c.totalText > LIMITS.totalBlockText) {
    c.problem('blocks', `${c.totalText} chars of text, keep ≤ 12000`);
  }
  return c.problems;
}

export function assertWithinLimits(message: unknown, surface: 'message' | 'view' = 'message'): void {
  const problems = checkBlockKitLimits(message, surface);
  if (problems.length > 0) throw new Error(`Block Kit limits broken:\n${problems.join('\n')}`);
}

/** A modal view: its blocks as above, plus title, submit and close (24 each), private_metadata and callback_id. */
export function checkModalLimits(view: unknown): string[] {
  if (!isObj(view)) return ['view: not an object'];
  const c = new Checker();
  for (const key of ['title', 'submit', 'close'] as const) {
    if (view[key] !== undefined || key === 'title') c.text(key, view[key], LIMITS.modalText, ['plain_text']);
  }
  c.string('private_metadata', view.private_metadata, LIMITS.privateMetadata, false);
  c.string('callback_id', view.callback_id, LIMITS.callbackId, false);
  const blocks = Array.isArray(view.blocks) ? view.blocks : [];
  if (blocks.some((b) => isObj(b) && b.type === 'input') && view.submit === undefined) {
    c.problem('submit', 'a modal with input blocks needs a submit button');
  }
  const size = JSON.stringify(view).length;
  if (size > LIMITS.viewJson) c.problem('view', `${size} characters of JSON, limit 250 kB`);
  return [...c.problems, ...checkBlockKitLimits({ blocks }, 'view')];
}
