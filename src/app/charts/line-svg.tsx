// The income-vs-expenses line chart's SVG (victory; loaded only through React.lazy in charts.tsx).
// Static: the popover, the guide line and the highlighted points are HTML drawn over it, so moving
// the pointer never re-renders victory.
import { memo } from 'react';
import { VictoryAxis, VictoryChart, VictoryContainer, VictoryLine, VictoryScatter } from 'victory';
import type { YearSeries } from '../../domain/analytics';
import { compactMoney, monthTick, SERIES, SERIES_ORDER, type Box } from './chart-model';

const MONTHS = Array.from({ length: 12 }, (_, i) => i + 1);
const AXIS_TEXT = { fill: 'var(--text-muted)', fontSize: 12, fontFamily: 'inherit', padding: 6 };

export interface LineSvgProps {
  box: Box;
  series: YearSeries;
  /** The amount axis ticks, 0 first and the top last (also the domain's top). */
  ticks: number[];
  label: string;
  /** Months after this one are not drawn (the rest of the current year). */
  lastMonth: number;
}

function LineSvg({ box, series, ticks, label, lastMonth }: LineSvgProps) {
  const top = ticks[ticks.length - 1] ?? 0;
  const points = (values: number[]) => values.slice(0, lastMonth).map((y, i) => ({ x: i + 1, y }));
  return (
    <VictoryChart
      width={box.width}
      height={box.height}
      padding={box.padding}
      domain={{ x: [1, 12], y: [0, top] }}
      containerComponent={<VictoryContainer responsive={false} role="img" aria-label={label} />}
    >
      <VictoryAxis
        tickValues={MONTHS}
        tickFormat={(m: number) => monthTick(box, m)}
        style={{ axis: { stroke: 'var(--border)' }, tickLabels: AXIS_TEXT, ticks: { size: 0 } }}
      />
      <VictoryAxis
        dependentAxis
        tickValues={ticks}
        tickFormat={(v: number) => compactMoney(v)}
        style={{ axis: { stroke: 'none' }, grid: { stroke: 'var(--border)', strokeDasharray: '2 4' }, tickLabels: AXIS_TEXT }}
      />
      {lastMonth > 0 && SERIES_ORDER.map((key) => (
        <VictoryLine
          key={`line-${key}`}
          data={points(series[key])}
          style={{ data: { stroke: SERIES[key].color, strokeWidth: 2.5, strokeDasharray: SERIES[key].dash } }}
        />
      ))}
      {lastMonth > 0 && SERIES_ORDER.map((key) => (
        <VictoryScatter
          key={`points-${key}`}
          data={points(series[key])}
          size={3.5}
          symbol={SERIES[key].marker}
          style={{ data: { fill: SERIES[key].color, stroke: 'var(--surface)', strokeWidth: 1 } }}
        />
      ))}
    </VictoryChart>
  );
}

export default memo(LineSvg);
