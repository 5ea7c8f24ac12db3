// The donut's SVG (victory; loaded only through React.lazy in charts.tsx). Slices carry no text:
// the legend next to it names each one with its amount and share (never colour alone).
import { memo } from 'react';
import { VictoryContainer, VictoryPie } from 'victory';
import { DONUT_SIZE, type DonutRow } from './chart-model';

function NoLabel() {
  return null;
}

function DonutSvg({ rows, label }: { rows: DonutRow[]; label: string }) {
  return (
    <VictoryPie
      width={DONUT_SIZE}
      height={DONUT_SIZE}
      padding={4}
      innerRadius={DONUT_SIZE * 0.34}
      padAngle={rows.length > 1 ? 1 : 0}
      data={rows.map((r) => ({ x: r.label, y: r.value }))}
      colorScale={rows.map((r) => r.color)}
      labelComponent={<NoLabel />}
      style={{ data: { stroke: 'var(--surface)', strokeWidth: 1 } }}
      containerComponent={<VictoryContainer responsive={false} role="img" aria-label={label} />}
    />
  );
}

export default memo(DonutSvg);
