// Slack's chart block (data_visualization) drawn as inline SVG for the local console (docs/digest.md):
// line, area and bar charts with their axis labels and a legend, and pie charts. Each bar and point
// carries a <title> with its series, label and value, as a tooltip.
const SVG = 'http://www.w3.org/2000/svg';
const COLORS = ['#1264a3', '#e8912d', '#2bac76', '#cd2553', '#7c3aed', '#0e7490'];

const svg = (tag, attrs = {}, text) => {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
};
const tip = (node, text) => {
  node.append(svg('title', {}, text));
  return node;
};

export function renderChart(b) {
  const fig = document.createElement('figure');
  fig.className = 'block chart';
  const caption = document.createElement('figcaption');
  caption.textContent = b.title ?? '';
  fig.append(caption);
  const chart = b.chart ?? {};
  const W = 480;
  const H = 220;
  const pad = { left: 48, right: 12, top: 10, bottom: 40 };
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    width: W,
    height: H,
    role: 'img',
    class: `chart-svg chart-${chart.type}`,
    'aria-label': b.title ?? 'chart',
  });
  const legend = document.createElement('ul');
  legend.className = 'chart-legend';
  const key = (name, i) => {
    const li = document.createElement('li');
    const dot = document.createElement('span');
    dot.className = 'swatch';
    dot.style.background = COLORS[i % COLORS.length];
    li.append(dot, document.createTextNode(name));
    legend.append(li);
  };
  if (chart.type === 'pie') {
    const segs = chart.segments ?? [];
    const total = segs.reduce((a, s) => a + Math.max(0, s.value), 0) || 1;
    let angle = -Math.PI / 2;
    const [cx, cy, r] = [W / 2, H / 2, H / 2 - 10];
    segs.forEach((s, i) => {
      const a = (Math.max(0, s.value) / total) * Math.PI * 2;
      const [x1, y1] = [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
      angle += a;
      const [x2, y2] = [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
      const d = `M${cx},${cy} L${x1},${y1} A${r},${r} 0 ${a > Math.PI ? 1 : 0} 1 ${x2},${y2} Z`;
      root.append(tip(svg('path', { d, fill: COLORS[i % COLORS.length], class: 'segment' }), `${s.label}: ${s.value}`));
      key(s.label, i);
    });
    fig.append(root, legend);
    return fig;
  }
  const categories = chart.axis_config?.categories ?? [];
  const series = chart.series ?? [];
  const max = Math.max(1, ...series.flatMap((s) => (s.data ?? []).map((p) => p.value)));
  const plotW = W - pad.left - pad.right;
  const plotH = H - pad.top - pad.bottom;
  const y = (v) => pad.top + plotH - (v / max) * plotH;
  const slot = plotW / Math.max(1, categories.length);
  const xMid = (i) => pad.left + slot * i + slot / 2;
  // Axes, the y scale at 0 and max, the category labels (every other one when crowded) and the axis titles.
  root.append(svg('line', { x1: pad.left, y1: pad.top, x2: pad.left, y2: pad.top + plotH, class: 'axis' }));
  root.append(
    svg('line', { x1: pad.left, y1: pad.top + plotH, x2: W - pad.right, y2: pad.top + plotH, class: 'axis' }),
  );
  root.append(svg('text', { x: pad.left - 4, y: y(max) + 4, 'text-anchor': 'end', class: 'tick' }, String(max)));
  root.append(svg('text', { x: pad.left - 4, y: y(0), 'text-anchor': 'end', class: 'tick' }, '0'));
  const every = categories.length > 12 ? 2 : 1;
  categories.forEach((c, i) => {
    if (i % every === 0)
      root.append(
        svg('text', { x: xMid(i), y: pad.top + plotH + 14, 'text-anchor': 'middle', class: 'tick category' }, c),
      );
  });
  if (chart.axis_config?.x_label) {
    root.append(
      svg(
        'text',
        { x: pad.left + plotW / 2, y: H - 4, 'text-anchor': 'middle', class: 'axis-label' },
        chart.axis_config.x_label,
      ),
    );
  }
  if (chart.axis_config?.y_label) {
    root.append(
      svg(
        'text',
        {
          x: 12,
          y: pad.top + plotH / 2,
          transform: `rotate(-90 12 ${pad.top + plotH / 2})`,
          'text-anchor': 'middle',
          class: 'axis-label',
        },
        chart.axis_config.y_label,
      ),
    );
  }
  series.forEach((s, si) => {
    const color = COLORS[si % COLORS.length];
    key(s.name, si);
    const points = (s.data ?? []).map((p) => ({ ...p, i: categories.indexOf(p.label) })).filter((p) => p.i >= 0);
    if (chart.type === 'bar') {
      const w = (slot * 0.8) / Math.max(1, series.length);
      for (const p of points) {
        const x = pad.left + slot * p.i + slot * 0.1 + w * si;
        const bar = svg('rect', {
          x,
          y: y(p.value),
          width: w,
          height: Math.max(0, pad.top + plotH - y(p.value)),
          fill: color,
          class: 'bar',
        });
        root.append(tip(bar, `${s.name}, ${p.label}: ${p.value}`));
      }
      return;
    }
    const d = points.map((p, k) => `${k === 0 ? 'M' : 'L'}${xMid(p.i)},${y(p.value)}`).join(' ');
    if (chart.type === 'area' && points.length > 0) {
      const first = points[0];
      const last = points[points.length - 1];
      const area = `${d} L${xMid(last.i)},${pad.top + plotH} L${xMid(first.i)},${pad.top + plotH} Z`;
      root.append(svg('path', { d: area, fill: color, 'fill-opacity': 0.2, stroke: 'none' }));
    }
    root.append(svg('path', { d, fill: 'none', stroke: color, 'stroke-width': 2, class: 'series-line' }));
    for (const p of points) {
      root.append(
        tip(
          svg('circle', { cx: xMid(p.i), cy: y(p.value), r: 3, fill: color, class: 'point' }),
          `${s.name}, ${p.label}: ${p.value}`,
        ),
      );
    }
  });
  fig.append(root, legend);
  return fig;
}
