import { sizeLabel } from './dataset.js';

/** One line of the chart: median latency (µs) at each dataset size (venues). */
export interface ChartSeries {
  readonly name: string;
  readonly points: ReadonlyArray<{ readonly venues: number; readonly us: number }>;
}

const W = 840;
const H = 460;
const M = { left: 70, right: 260, top: 40, bottom: 56 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];

/**
 * A log-log line chart as a self-contained SVG: x = venues, y = median latency in µs
 * (decade grid lines), one coloured line per series with dots and its name at the end.
 */
export function scalingSvg(series: readonly ChartSeries[], title: string, subtitle: string): string {
  const xs = series.flatMap((s) => s.points.map((p) => p.venues));
  const ys = series.flatMap((s) => s.points.map((p) => p.us));
  const x0 = Math.log10(Math.min(...xs)) - 0.12;
  const x1 = Math.log10(Math.max(...xs)) + 0.12;
  const y0 = Math.floor(Math.log10(Math.min(...ys)));
  const y1 = Math.ceil(Math.log10(Math.max(...ys)));
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const px = (v: number) => M.left + ((Math.log10(v) - x0) / Math.max(1e-9, x1 - x0)) * pw;
  const py = (v: number) => M.top + ph - ((Math.log10(v) - y0) / Math.max(1e-9, y1 - y0)) * ph;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(`<text x="${M.left}" y="20" font-size="15" font-weight="bold">${esc(title)}</text>`);
  out.push(`<text x="${M.left}" y="34" fill="#555">${esc(subtitle)}</text>`);
  for (let e = y0; e <= y1; e++) {
    const y = py(10 ** e);
    out.push(`<line x1="${M.left}" x2="${M.left + pw}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    out.push(`<text x="${M.left - 8}" y="${y + 4}" text-anchor="end">${usLabel(10 ** e)}</text>`);
  }
  for (let e = Math.ceil(x0); e <= x1; e++) {
    const x = px(10 ** e);
    out.push(`<line x1="${x}" x2="${x}" y1="${M.top}" y2="${M.top + ph}" stroke="#ddd"/>`);
  }
  for (const v of [...new Set(xs)].sort((a, b) => a - b)) {
    const x = px(v);
    out.push(`<line x1="${x}" x2="${x}" y1="${M.top + ph}" y2="${M.top + ph + 5}" stroke="#333"/>`);
    out.push(`<text x="${x}" y="${M.top + ph + 18}" text-anchor="middle">${sizeLabel(v)}</text>`);
  }
  out.push(`<rect x="${M.left}" y="${M.top}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>`);
  out.push(`<text x="${M.left + pw / 2}" y="${H - 12}" text-anchor="middle">venues (log scale)</text>`);
  out.push(`<text transform="translate(16 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">median latency (log scale)</text>`);
  // End labels: ordered by the lines' last values, pushed apart to at least 14 px.
  const ends = series.map((s, k) => {
    const pts = [...s.points].sort((a, b) => a.venues - b.venues);
    return { k, last: pts[pts.length - 1]!, y: py(pts[pts.length - 1]!.us) + 4 };
  });
  ends.sort((a, b) => a.y - b.y);
  for (let j = 1; j < ends.length; j++) ends[j]!.y = Math.max(ends[j]!.y, ends[j - 1]!.y + 14);
  // Reference: cost proportional to venues (slope 1), through the first point of the first series.
  const ref = [...(series[0]?.points ?? [])].sort((a, b) => a.venues - b.venues);
  if (ref.length > 1) {
    const a = ref[0]!;
    const b = ref[ref.length - 1]!;
    const yb = a.us * (b.venues / a.venues);
    out.push(`<line x1="${px(a.venues).toFixed(1)}" y1="${py(a.us).toFixed(1)}" x2="${px(b.venues).toFixed(1)}" y2="${py(yb).toFixed(1)}" stroke="#999" stroke-dasharray="5 4"/>`);
    out.push(`<text x="${(px(b.venues) - 6).toFixed(1)}" y="${Math.max(M.top + 12, py(yb) - 6).toFixed(1)}" fill="#888" text-anchor="end">cost ∝ venues</text>`);
  }
  series.forEach((s, k) => {
    const c = COLOURS[k % COLOURS.length]!;
    const pts = [...s.points].sort((a, b) => a.venues - b.venues);
    out.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${pts.map((p) => `${px(p.venues).toFixed(1)},${py(p.us).toFixed(1)}`).join(' ')}"/>`);
    for (const p of pts) out.push(`<circle cx="${px(p.venues).toFixed(1)}" cy="${py(p.us).toFixed(1)}" r="3.5" fill="${c}"><title>${esc(s.name)}: ${usLabel(p.us)} at ${sizeLabel(p.venues)}</title></circle>`);
  });
  for (const e of ends) {
    const c = COLOURS[e.k % COLOURS.length]!;
    out.push(`<text x="${M.left + pw + 8}" y="${e.y.toFixed(1)}" fill="${c}">${esc(series[e.k]!.name)} (${usLabel(e.last.us)})</text>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

function usLabel(us: number): string {
  if (us >= 1000) return `${+(us / 1000).toPrecision(3)} ms`;
  return `${+us.toPrecision(3)} µs`;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
