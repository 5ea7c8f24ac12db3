// The chart kit: a donut and an income-vs-expenses line chart. This module holds no
// victory code: the SVGs (donut-svg.tsx, line-svg.tsx) load through React.lazy, so victory never
// reaches the login route or the dashboard's first paint. Every chart has its numbers in a <table>
// (visually hidden until 'Ver como tabla'), and the line chart's popover works by pointer, tap and keys.
import {
  Component, lazy, Suspense, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type RefObject,
} from 'react';
import type { LabelValue, YearSeries } from '../../domain/analytics';
import { formatMoney } from '../../domain/money';
import { TXT } from '../strings';
import { Skeleton } from '../ui/skeleton';
import {
  amountTicks, amountY, DONUT_SIZE, donutRows, lineBox, monthRows, monthText, monthX, nearestMonth, percentText, SERIES, SERIES_ORDER,
  type SeriesKey,
} from './chart-model';
import './charts.css';

const loadDonut = () => import('./donut-svg');
const loadLine = () => import('./line-svg');
const DonutSvg = lazy(loadDonut);
const LineSvg = lazy(loadLine);

/** Starts downloading the chart code ahead of its first render (e.g. while the data is on its way). */
export function preloadCharts(): void {
  void loadDonut().catch(() => undefined);
  void loadLine().catch(() => undefined);
}

/** A chart whose code failed to load (e.g. a stale deploy offline) says so; its table still works. */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p className="muted chart-failed">{TXT.chartFailed}</p> : this.props.children;
  }
}

/** The width of an element, followed as it resizes (charts draw at real size, not a scaled viewBox). */
function useWidth<T extends HTMLElement>(fallback: number): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth || fallback);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      if (w > 0) setWidth(w);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [fallback]);
  return [ref, width];
}

/** True once the element is near the viewport and the page is idle: below-the-fold charts wait. */
function useDeferredMount<T extends HTMLElement>(enabled: boolean): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [ready, setReady] = useState(!enabled);
  useEffect(() => {
    if (ready) return;
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') {
      setReady(true);
      return;
    }
    let idle = 0;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        const go = () => setReady(true);
        idle = window.requestIdleCallback ? window.requestIdleCallback(go, { timeout: 1500 }) : window.setTimeout(go, 200);
      },
      { rootMargin: '200px' },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      if (idle && window.cancelIdleCallback) window.cancelIdleCallback(idle);
    };
  }, [ready]);
  return [ref, ready];
}

export interface TableColumn {
  heading: string;
  numeric?: boolean;
}

/** The data-table alternative: always read by screen readers, shown on screen on request. */
export function ChartTable({ caption, columns, rows, foot }: { caption: string; columns: TableColumn[]; rows: string[][]; foot?: string[] }) {
  const [shown, setShown] = useState(false);
  const id = useId();
  const cell = (i: number) => (columns[i]?.numeric ? 'num tabular' : undefined);
  return (
    <div className="chart-table">
      <button type="button" className="link-button chart-table__toggle" aria-pressed={shown} aria-controls={id} onClick={() => setShown((s) => !s)}>
        {TXT.chartAsTable}
      </button>
      <div id={id} className={shown ? 'chart-table__wrap' : 'visually-hidden'}>
        <table className="data-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={c.heading} scope="col" className={cell(i)}>
                  {c.heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r[0]}>
                {r.map((v, i) =>
                  i === 0 ? (
                    <th key={i} scope="row">
                      {v}
                    </th>
                  ) : (
                    <td key={i} className={cell(i)}>
                      {v}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
          {foot && (
            <tfoot>
              <tr>
                {foot.map((v, i) =>
                  i === 0 ? (
                    <th key={i} scope="row">
                      {v}
                    </th>
                  ) : (
                    <td key={i} className={cell(i)}>
                      {v}
                    </td>
                  ),
                )}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </div>
  );
}

function DonutPlaceholder() {
  return <span className="donut__placeholder" aria-hidden="true" />;
}

/**
 * Donut of spending by category: at most 5 slices plus 'Otros' (give it donutSlices()), 'No hay datos'
 * when empty. `defer` waits until the card is near the viewport and the page idle (the dashboard).
 */
export function DonutChart({ slices, caption, defer = false }: { slices: readonly LabelValue[]; caption: string; defer?: boolean }) {
  const rows = donutRows(slices);
  const [ref, ready] = useDeferredMount<HTMLDivElement>(defer);
  if (rows.length === 0) return <p className="muted donut__empty">{TXT.noData}</p>;
  const total = rows.reduce((s, r) => s + r.value, 0);
  const label = `${caption}: ${rows.map((r) => `${r.label} ${percentText(r.share)}`).join(', ')}`;
  return (
    <div className="donut">
      <div className="donut__figure" ref={ref} style={{ width: DONUT_SIZE, height: DONUT_SIZE }}>
        {ready ? (
          <ChartBoundary>
            <Suspense fallback={<DonutPlaceholder />}>
              <DonutSvg rows={rows} label={label} />
            </Suspense>
          </ChartBoundary>
        ) : (
          <DonutPlaceholder />
        )}
        <span className="donut__total" aria-hidden="true">
          <span className="muted">{TXT.total}</span>
          <strong className="tabular">{formatMoney(total)}</strong>
        </span>
      </div>
      {/* The legend names every colour; screen readers get the same in the table. */}
      <ul className="donut__legend" aria-hidden="true">
        {rows.map((r) => (
          <li key={r.label}>
            <span className="donut__swatch" style={{ background: r.color }} />
            <span className="donut__label">{r.label}</span>
            <span className="donut__share tabular">{percentText(r.share)}</span>
          </li>
        ))}
      </ul>
      <ChartTable
        caption={caption}
        columns={[{ heading: TXT.category }, { heading: TXT.amount, numeric: true }, { heading: TXT.share, numeric: true }]}
        rows={rows.map((r) => [r.label, formatMoney(r.value), percentText(r.share)])}
        foot={[TXT.total, formatMoney(total), percentText(100)]}
      />
    </div>
  );
}

/** A legend sample of a series: its colour, dash and marker. */
function SeriesSample({ k }: { k: SeriesKey }) {
  const s = SERIES[k];
  return (
    <svg className="series-sample" width="28" height="12" viewBox="0 0 28 12" aria-hidden="true" focusable="false">
      <line x1="1" y1="6" x2="27" y2="6" stroke={s.color} strokeWidth="2.5" strokeDasharray={s.dash} />
      {s.marker === 'circle' ? <circle cx="14" cy="6" r="4" fill={s.color} /> : <rect x="10" y="2" width="8" height="8" fill={s.color} />}
    </svg>
  );
}

export function SeriesLegend() {
  return (
    <ul className="series-legend" aria-hidden="true">
      {SERIES_ORDER.map((k) => (
        <li key={k}>
          <SeriesSample k={k} />
          {SERIES[k].label}
        </li>
      ))}
    </ul>
  );
}

/**
 * Gastos and Ingresos over the 12 months of a year (drawn up to `lastMonth`: the current year stops at
 * the current month). Hover, tap or the arrow keys (the layer over the plot is a slider over the
 * months) show a popover with the amount of each series, month and year.
 */
export function IncomeExpenseChart({ series, year, caption, lastMonth = 12 }: { series: YearSeries; year: number; caption: string; lastMonth?: number }) {
  const last = Math.min(12, Math.max(1, lastMonth));
  const [ref, width] = useWidth<HTMLDivElement>(640);
  const box = lineBox(width);
  const ticks = amountTicks(Math.max(0, ...series.spending, ...series.income));
  const top = ticks[ticks.length - 1] ?? 0;
  const rows = monthRows(series);
  const [active, setActive] = useState<number | null>(null);
  const [cursor, setCursor] = useState(1);
  const layerRef = useRef<HTMLDivElement>(null);
  // Another year may end earlier (the current one): the cursor stays inside it.
  const at = Math.min(cursor, last);

  const show = (month: number) => {
    setCursor(month);
    setActive(month);
  };
  const fromPointer = (e: PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    show(Math.min(last, nearestMonth(box, e.clientX - rect.left)));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next: Record<string, number> = { ArrowRight: at + 1, ArrowUp: at + 1, ArrowLeft: at - 1, ArrowDown: at - 1, Home: 1, End: last };
    if (e.key === 'Escape') {
      setActive(null);
      return;
    }
    const m = next[e.key];
    if (m === undefined) return;
    e.preventDefault();
    show(Math.min(last, Math.max(1, m)));
  };

  const shown = active !== null && active <= last ? active : null;
  const row = shown !== null ? rows[shown - 1] : undefined;
  const x = shown !== null ? monthX(box, shown) : 0;
  const label = `${caption}: ${SERIES_ORDER.map((k) => SERIES[k].label).join(' e ')} por mes`;
  const cursorRow = rows[at - 1]!;

  return (
    <div className="line-chart">
      <SeriesLegend />
      <div ref={ref} className="line-chart__plot" style={{ height: box.height }}>
        <ChartBoundary>
          <Suspense fallback={<Skeleton width="100%" height={box.height} />}>
            <LineSvg box={box} series={series} ticks={ticks} label={label} lastMonth={lastMonth} />
          </Suspense>
        </ChartBoundary>
        <div
          ref={layerRef}
          className="line-chart__layer"
          role="slider"
          tabIndex={0}
          aria-label={TXT.chartExplore}
          aria-valuemin={1}
          aria-valuemax={last}
          aria-valuenow={at}
          aria-valuetext={monthText(cursorRow, year)}
          onPointerMove={(e) => {
            if (e.pointerType === 'mouse' || e.buttons > 0) fromPointer(e);
          }}
          onPointerDown={fromPointer}
          onPointerLeave={(e) => {
            if (e.pointerType === 'mouse' && document.activeElement !== layerRef.current) setActive(null);
          }}
          // A tap focuses after its pointerdown already chose the month: keep that one.
          onFocus={() => setActive((a) => a ?? at)}
          onBlur={() => setActive(null)}
          onKeyDown={onKeyDown}
        >
          {row && (
            <>
              <span className="line-chart__guide" style={{ left: x, top: box.padding.top, height: box.height - box.padding.top - box.padding.bottom }} />
              {SERIES_ORDER.map((k) => (
                <span
                  key={k}
                  className={`line-chart__dot line-chart__dot--${SERIES[k].marker}`}
                  style={{ left: x, top: amountY(box, row[k], top), background: SERIES[k].color }}
                />
              ))}
            </>
          )}
        </div>
        {row && (
          <div
            className="chart-popover"
            aria-hidden="true"
            style={x < box.width / 2 ? { left: x + 12, top: box.padding.top } : { right: box.width - x + 12, top: box.padding.top }}
          >
            <strong>{`${row.name} ${year}`}</strong>
            {SERIES_ORDER.map((k) => (
              <span key={k} className="chart-popover__line">
                <SeriesSample k={k} />
                <span>{SERIES[k].label}</span>
                <span className="tabular chart-popover__amount">{formatMoney(row[k])}</span>
              </span>
            ))}
          </div>
        )}
      </div>
      <ChartTable
        caption={caption}
        columns={[{ heading: TXT.month }, { heading: SERIES.spending.label, numeric: true }, { heading: SERIES.income.label, numeric: true }]}
        rows={rows.map((r) => [r.name, formatMoney(r.spending), formatMoney(r.income)])}
      />
    </div>
  );
}
