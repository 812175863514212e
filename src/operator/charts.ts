/**
 * Server-rendered SVG bar charts for the operator overview (issue 11), laid out with d3-scale
 * (band + linear scales): no JavaScript in the browser, no inline style (CSP), and each chart
 * sits beside a table with the same numbers, which is what screen readers read (the SVG is
 * `aria-hidden` decoration of that table). The title is a heading above the chart (issue 30: on a
 * phone the caption of the table used to fall below the chart).
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
  if (data.length === 0)
    return `<section class="chart" aria-label="${e(caption)}"><p><strong>${e(caption)}:</strong> no data yet.</p></section>`;
  const x = scaleBand<string>()
    .domain(data.map(([label]) => label))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.25);
  const max = Math.max(1, ...data.map(([, v]) => v));
  const y = scaleLinear()
    .domain([0, max])
    .nice()
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
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
    .map(
      (
        t,
      ) => `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#dde1e7"></line>
<text x="${MARGIN.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end" font-size="10" fill="#4a5262">${fmt(t)}</text>`,
    )
    .join('\n');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" aria-hidden="true" focusable="false" id="chart-${e(id)}">
${grid}
${bars}
</svg>`;
  return `<section class="chart" aria-label="${e(caption)}"><h2>${e(caption)}</h2>${svg}<div>${table(
    caption,
    ['Category', 'Value'],
    data.map(([label, value]) => [e(label), e(fmt(value))]),
    undefined,
    { hiddenCaption: true, stack: false },
  )}</div></section>`;
}

const PALETTE = ['#2952cc', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490'];

/**
 * A stacked bar chart of counts per day and series (e.g. token issuances per client per day),
 * with a table of the non-zero figures (day, series, count) that screen readers read.
 * @param id short unique word for element ids
 * @param caption what the figures are (table caption)
 * @param days x-axis labels `YYYY-MM-DD`, oldest first
 * @param rows `{ day, series, count }` with count ≥ 1; days not in `days` are ignored
 */
export function stackedDailyChart(
  id: string,
  caption: string,
  days: string[],
  rows: Array<{ day: string; series: string; count: number }>,
): string {
  const shown = rows.filter((r) => days.includes(r.day));
  if (shown.length === 0)
    return `<section class="chart" aria-label="${e(caption)}"><p><strong>${e(caption)}:</strong> no data yet.</p></section>`;
  const width = 520;
  const series = [...new Set(shown.map((r) => r.series))].sort();
  const colour = (s: string) => PALETTE[series.indexOf(s) % PALETTE.length]!;
  const x = scaleBand<string>()
    .domain(days)
    .range([MARGIN.left, width - MARGIN.right])
    .padding(0.2);
  const totals = new Map<string, number>();
  for (const r of shown) totals.set(r.day, (totals.get(r.day) ?? 0) + r.count);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...totals.values())])
    .nice()
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const grid = y
    .ticks(4)
    .filter(Number.isInteger)
    .map(
      (
        t,
      ) => `<line x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#dde1e7"></line>
<text x="${MARGIN.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end" font-size="10" fill="#4a5262">${fmt(t)}</text>`,
    )
    .join('\n');
  const bars: string[] = [];
  for (const day of days) {
    let base = 0;
    for (const s of series) {
      const n = shown.find((r) => r.day === day && r.series === s)?.count ?? 0;
      if (n === 0) continue;
      bars.push(
        `<rect x="${x(day)!.toFixed(1)}" y="${y(base + n).toFixed(1)}" width="${x.bandwidth().toFixed(1)}" height="${(y(base) - y(base + n)).toFixed(1)}" fill="${colour(s)}"></rect>`,
      );
      base += n;
    }
  }
  const labels = days
    .map((d, i) =>
      i % 2 === days.length % 2
        ? ''
        : `<text x="${(x(d)! + x.bandwidth() / 2).toFixed(1)}" y="${HEIGHT - MARGIN.bottom + 14}" text-anchor="middle" font-size="9" fill="#1d2330">${e(d.slice(5))}</text>`,
    )
    .join('');
  const legend = series
    .slice(0, PALETTE.length)
    .map(
      (s, i) =>
        `<rect x="${MARGIN.left + i * 80}" y="${HEIGHT - 10}" width="8" height="8" fill="${colour(s)}"></rect><text x="${MARGIN.left + i * 80 + 11}" y="${HEIGHT - 2}" font-size="9" fill="#1d2330">${e(s.length > 12 ? `${s.slice(0, 11)}…` : s)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${HEIGHT}" width="${width}" height="${HEIGHT}" aria-hidden="true" focusable="false" id="chart-${e(id)}">
${grid}
${bars.join('\n')}
${labels}
${legend}
</svg>`;
  const tableRows = shown.map((r) => [e(r.day), e(r.series), e(fmt(r.count))]);
  return `<section class="chart" aria-label="${e(caption)}"><h2>${e(caption)}</h2>${svg}<div>${table(caption, ['Day (UTC)', 'Client', 'Tokens'], tableRows, undefined, { hiddenCaption: true, stack: false })}</div></section>`;
}
