/**
 * Server-rendered SVG bar charts for the operator overview (issue 11), laid out with d3-scale
 * (band + linear scales): no JavaScript in the browser, no inline style (CSP), and each chart
 * sits beside a table with the same numbers, which is what screen readers read (the SVG is
 * `aria-hidden` decoration of that table).
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { e, table } from './views.js';

const WIDTH = 360;
const HEIGHT = 180;
const MARGIN = { top: 10, right: 10, bottom: 30, left: 40 };

/** Formats a figure for labels and tables (up to two decimals, thousands separators). */
const fmt = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/**
 * A bar chart and its number table.
 * @param id short unique word for element ids
 * @param caption what the figures are (table caption and chart title)
 * @param data `[label, value]` pairs, values ≥ 0
 */
export function barChart(id: string, caption: string, data: Array<[string, number]>): string {
  if (data.length === 0) return `<section class="chart" aria-label="${e(caption)}"><p><strong>${e(caption)}:</strong> no data yet.</p></section>`;
  const x = scaleBand<string>()
    .domain(data.map(([label]) => label))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.25);
  const max = Math.max(1, ...data.map(([, v]) => v));
  const y = scaleLinear().domain([0, max]).nice().range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  // Counts get whole-number ticks only.
  const ticks = y.ticks(4).filter((t) => !data.every(([, v]) => Number.isInteger(v)) || Number.isInteger(t));
  const bars = data
    .map(([label, value]) => {
      const top = y(value);
      return `<rect x="${x(label)!.toFixed(1)}" y="${top.toFixed(1)}" width="${x.bandwidth().toFixed(1)}" height="${(y(0) - top).toFixed(1)}" fill="#2952cc"></rect>
<text x="${(x(label)! + x.bandwidth() / 2).toFixed(1)}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle" font-size="11" fill="#1d2330">${e(label)}</text>`;
    })
    .join('\n');
  const grid = ticks
    .map((t) => `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#dde1e7"></line>
<text x="${MARGIN.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end" font-size="10" fill="#4a5262">${fmt(t)}</text>`)
    .join('\n');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" aria-hidden="true" focusable="false" id="chart-${e(id)}">
${grid}
${bars}
</svg>`;
  return `<section class="chart" aria-label="${e(caption)}">${svg}<div>${table(caption, ['Category', 'Value'], data.map(([label, value]) => [e(label), e(fmt(value))]))}</div></section>`;
}
