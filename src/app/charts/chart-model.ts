// The chart kit's pure side (no victory, no React): geometry shared by the SVG and the HTML layer
// drawn over it, axis ticks, the words of the popovers and the rows of the data-table alternatives.
import { DONUT_PALETTE, OTHERS_LABEL, sharePercent, type LabelValue, type YearSeries } from '../../domain/analytics';
import { capitalize, MONTH_NAMES } from '../../domain/dates';
import { formatMoney, formatUpToTwoDecimals } from '../../domain/money';

export type SeriesKey = 'spending' | 'income';

/** Gastos and Ingresos: palette colours, told apart without colour by dash and marker (brand guide). */
export const SERIES: Record<SeriesKey, { label: string; color: string; dash: string | undefined; marker: 'circle' | 'square' }> = {
  spending: { label: 'Gastos', color: DONUT_PALETTE[0], dash: undefined, marker: 'circle' },
  income: { label: 'Ingresos', color: DONUT_PALETTE[2], dash: '6 4', marker: 'square' },
};
export const SERIES_ORDER: readonly SeriesKey[] = ['spending', 'income'];

/** Axis labels of the months: 'ene' … 'dic'. */
export const MONTH_SHORT = MONTH_NAMES.map((m) => m.slice(0, 3));

// Made on first use, not at module load: building it loads ICU data (the compact notation its own), and
// the dashboard evaluates this module before its first paint, charts or not; only the line chart uses it.
let COMPACT: Intl.NumberFormat | undefined;

/** Axis money: "$0", "$950", "$12.5 k", "$1.3 M". */
export function compactMoney(n: number): string {
  COMPACT ??= new Intl.NumberFormat('es-MX', { notation: 'compact', maximumFractionDigits: 1 });
  return `${n < 0 ? '-' : ''}$${COMPACT.format(Math.abs(n))}`;
}

/** A round top for the amount axis and its ticks (0 and 4 equal steps of 1, 2, 2.5 or 5 × 10ⁿ). */
export function amountTicks(max: number, steps = 4): number[] {
  if (!(max > 0)) return [0];
  const raw = max / steps;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  return Array.from({ length: steps + 1 }, (_, i) => Math.round(i * step * 100) / 100);
}

export interface Box {
  width: number;
  height: number;
  padding: { top: number; right: number; bottom: number; left: number };
  /** A phone: every other month is named on the axis. */
  narrow: boolean;
}

/** The line chart's box for a container width: shorter and with tighter margins on phones. */
export function lineBox(width: number): Box {
  const w = Math.max(240, Math.round(width));
  const narrow = w < 480;
  return { width: w, height: narrow ? 220 : 280, padding: { top: 16, right: narrow ? 14 : 20, bottom: 32, left: narrow ? 48 : 64 }, narrow };
}

/** The month axis label: 'ene' … 'dic', only the odd months on a phone (12 do not fit). */
export function monthTick(box: Box, month: number): string {
  return box.narrow && month % 2 === 0 ? '' : (MONTH_SHORT[month - 1] ?? '');
}

/** The last month to draw: the current one in the current year (later months have not happened). */
export function lastMonthOf(year: number, now: { year: number; month: number }): number {
  return year < now.year ? 12 : year === now.year ? now.month : 0;
}

/** Pixel x of month 1..12 inside the box (the victory domain is exactly [1, 12]). */
export function monthX(box: Box, month: number): number {
  const inner = box.width - box.padding.left - box.padding.right;
  return box.padding.left + ((month - 1) / 11) * inner;
}

/** Pixel y of an amount inside the box (the victory domain is exactly [0, top]). */
export function amountY(box: Box, amount: number, top: number): number {
  const inner = box.height - box.padding.top - box.padding.bottom;
  return box.padding.top + inner - (top > 0 ? (amount / top) * inner : 0);
}

/** The month (1..12) nearest to a pixel x, e.g. under the pointer. */
export function nearestMonth(box: Box, x: number): number {
  const inner = box.width - box.padding.left - box.padding.right;
  const m = Math.round(((x - box.padding.left) / inner) * 11) + 1;
  return Math.min(12, Math.max(1, m));
}

/** "marzo de 2026" (running text, brand guide). */
export function monthOfYear(month: number, year: number): string {
  return `${MONTH_NAMES[month - 1] ?? ''} de ${year}`;
}

export interface MonthRow {
  month: number;
  /** "Marzo" */
  name: string;
  spending: number;
  income: number;
}

export function monthRows(series: YearSeries): MonthRow[] {
  return MONTH_NAMES.map((m, i) => ({ month: i + 1, name: capitalize(m), spending: series.spending[i] ?? 0, income: series.income[i] ?? 0 }));
}

/** What the popover and the slider's value say for one month: amount, series, month and year. */
export function monthText(row: MonthRow, year: number): string {
  const parts = SERIES_ORDER.map((k) => `${SERIES[k].label}: ${formatMoney(row[k])}`);
  return `${capitalize(monthOfYear(row.month, year))}. ${parts.join('; ')}`;
}

/** "12.35 %" (spec §9: percentages rounded to 2 decimals), written without Intl as money is (money.ts). */
export function percentText(n: number): string {
  return `${formatUpToTwoDecimals(n)} %`;
}

export function hasAmounts(series: YearSeries): boolean {
  return series.spending.some((v) => v !== 0) || series.income.some((v) => v !== 0);
}

/** The donut's side in px (fixed: it fits a 360 px phone next to nothing, and reserves its space). */
export const DONUT_SIZE = 184;

export interface DonutRow extends LabelValue {
  share: number;
  color: string;
}

const OTHERS_COLOR = DONUT_PALETTE[DONUT_PALETTE.length - 1]!;

/** Donut slices with their colour (grey for 'Otros') and share of the total, in drawing order. */
export function donutRows(slices: readonly LabelValue[]): DonutRow[] {
  const total = slices.reduce((s, g) => s + g.value, 0);
  return slices.map((g, i) => ({
    ...g,
    share: sharePercent(g.value, total),
    color: g.label === OTHERS_LABEL ? OTHERS_COLOR : DONUT_PALETTE[i % (DONUT_PALETTE.length - 1)]!,
  }));
}
