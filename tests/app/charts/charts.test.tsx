// The charts rendered to markup (no DOM needed): the victory SVGs say what they show, and the
// code-split wrappers give screen readers the numbers in a table before any chart code loads.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DonutChart, IncomeExpenseChart } from '../../../src/app/charts/charts';
import { donutRows, lineBox } from '../../../src/app/charts/chart-model';
import DonutSvg from '../../../src/app/charts/donut-svg';
import LineSvg from '../../../src/app/charts/line-svg';

const series = {
  spending: [100, 200, 300, 0, 0, 0, 0, 0, 0, 0, 0, 1500.5],
  income: [1000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2500],
};
const slices = [
  { label: 'Renta', value: 600 },
  { label: 'Gasolina', value: 300 },
  { label: 'Otros', value: 100 },
];

describe('victory SVGs', () => {
  it('draw the donut as an image with a label, one slice per group', () => {
    const html = renderToStaticMarkup(<DonutSvg rows={donutRows(slices)} label="Gastos por categoría: Renta 60 %" />);
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Gastos por categoría: Renta 60 %"/);
    expect(html.match(/<path/g)?.length).toBe(3);
    expect(html).toContain('#0072B2');
  });

  it('draw two lines, dashed and solid, with month labels', () => {
    const html = renderToStaticMarkup(<LineSvg box={lineBox(640)} series={series} ticks={[0, 1000, 2000, 3000]} label="Ingresos y gastos de 2026" lastMonth={12} />);
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Ingresos y gastos de 2026"/);
    expect(html).toContain('stroke-dasharray:6 4');
    for (const m of ['ene', 'jun', 'dic']) expect(html).toContain(`>${m}<`);
    expect(html).toContain('$3\u00a0k');
  });
});

describe('code-split charts', () => {
  it('give the donut numbers in a table and name every colour', () => {
    const html = renderToStaticMarkup(<DonutChart slices={slices} caption="Gastos por categoría de 2026" />);
    expect(html).toContain('<caption>Gastos por categoría de 2026</caption>');
    expect(html).toContain('<th scope="row">Otros</th><td class="num tabular">$100.00</td><td class="num tabular">10 %</td>');
    expect(html).toContain('<th scope="row">Total</th><td class="num tabular">$1,000.00</td>');
    expect(html).toContain('Ver como tabla');
    // Before the lazy SVG arrives: a placeholder of the same size, no victory markup.
    expect(html).not.toContain('<svg role="img"');
  });

  it('say No hay datos for a donut without spending', () => {
    expect(renderToStaticMarkup(<DonutChart slices={[]} caption="x" />)).toContain('No hay datos');
  });

  it('give the line chart a month slider and a month-by-month table', () => {
    const html = renderToStaticMarkup(<IncomeExpenseChart series={series} year={2026} caption="Ingresos y gastos de 2026" />);
    expect(html).toMatch(/role="slider"[^>]*aria-valuetext="Enero de 2026. Gastos: \$100.00; Ingresos: \$1,000.00"/);
    expect(html).toContain('<th scope="row">Diciembre</th><td class="num tabular">$1,500.50</td><td class="num tabular">$2,500.00</td>');
  });
});
