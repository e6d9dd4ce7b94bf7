// The overview's time series, drawn with uPlot (bundled into this script): revenue attributed per
// day (bars), and click-through and conversion rates per day with the CTR's 95 % interval as a
// band. Days are UTC days, as the statistics count them. Charts follow their box's width.
import uPlot from 'uplot';
import { amount, dayNumber, percent } from './format';
import type { StatsAnswer } from './types';

const HEIGHT = 240;
const utc = (ts: number): Date => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC');

interface Chart {
  plot: uPlot;
  box: HTMLElement;
}

const charts = new Map<string, Chart>();
let observer: ResizeObserver | undefined;

function widthOf(box: HTMLElement): number {
  return Math.max(240, Math.floor(box.clientWidth));
}

/** Creates the chart in `box` the first time, else gives it the new data. */
function draw(box: HTMLElement, options: () => Omit<uPlot.Options, 'width' | 'height'>, data: uPlot.AlignedData): void {
  const existing = charts.get(box.id);
  if (existing !== undefined) {
    existing.plot.setData(data);
    return;
  }
  const plot = new uPlot({ ...options(), width: widthOf(box), height: HEIGHT }, data, box);
  charts.set(box.id, { plot, box });
  observer ??= new ResizeObserver(() => {
    for (const chart of charts.values()) {
      const width = widthOf(chart.box);
      if (width !== chart.plot.width) chart.plot.setSize({ width, height: HEIGHT });
    }
  });
  observer.observe(box);
}

const moneyAxis = (_u: uPlot, values: number[]): string[] => values.map((v) => amount(v).replace(/\.00$/, ''));
const percentAxis = (_u: uPlot, values: number[]): string[] => values.map((v) => percent(v, v < 0.1 ? 1 : 0));

export function drawRevenue(box: HTMLElement, days: StatsAnswer): void {
  const x = days.groups.map((g) => dayNumber(g.key) * 86_400);
  const revenue = days.groups.map((g) => g.revenue);
  const orders = days.groups.map((g) => g.orders);
  draw(
    box,
    () => ({
      tzDate: utc,
      scales: { x: { time: true }, revenue: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
      series: [
        { value: (_u, ts) => (ts == null ? '–' : utc(ts).toISOString().slice(0, 10)) },
        { label: 'Revenue attributed', scale: 'revenue', stroke: '#3559e0', fill: 'rgba(53, 89, 224, 0.35)', paths: uPlot.paths.bars!({ size: [0.7, 48] }), points: { show: false }, value: (_u, v) => (v == null ? '–' : amount(v)) },
        { label: 'Orders', scale: 'orders', stroke: '#d97706', width: 2, value: (_u, v) => (v == null ? '–' : String(v)) },
      ],
      axes: [{}, { scale: 'revenue', values: moneyAxis, size: 64 }, { scale: 'orders', side: 1, grid: { show: false }, size: 44 }],
    }),
    [x, revenue, orders],
  );
}

export function drawRates(box: HTMLElement, days: StatsAnswer): void {
  const x = days.groups.map((g) => dayNumber(g.key) * 86_400);
  const ctr = days.groups.map((g) => g.ctr.rate);
  const ctrLow = days.groups.map((g) => g.ctr.low);
  const ctrHigh = days.groups.map((g) => g.ctr.high);
  const conversion = days.groups.map((g) => g.conversionRate.rate);
  draw(
    box,
    () => ({
      tzDate: utc,
      scales: { x: { time: true }, rate: { range: (_u, _min, max) => [0, Math.max(0.01, max ?? 0) * 1.1] } },
      // The CTR's interval: a band between its low and high series.
      bands: [{ series: [3, 2], fill: 'rgba(5, 150, 105, 0.15)' }],
      series: [
        { value: (_u, ts) => (ts == null ? '–' : utc(ts).toISOString().slice(0, 10)) },
        { label: 'CTR', scale: 'rate', stroke: '#059669', width: 2, value: (_u, v) => percent(v) },
        { label: 'CTR 95 % low', scale: 'rate', stroke: 'rgba(5, 150, 105, 0.35)', width: 1, value: (_u, v) => percent(v) },
        { label: 'CTR 95 % high', scale: 'rate', stroke: 'rgba(5, 150, 105, 0.35)', width: 1, value: (_u, v) => percent(v) },
        { label: 'Conversion (orders / clicks)', scale: 'rate', stroke: '#b42318', width: 2, value: (_u, v) => percent(v) },
      ],
      axes: [{}, { scale: 'rate', values: percentAxis, size: 56 }],
    }),
    [x, ctr, ctrLow, ctrHigh, conversion],
  );
}
