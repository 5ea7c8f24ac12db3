// The company view's charts (spec §2): approved spending per month of the year (plain CSS bars: no chart
// library for 12 bars), by department and by category (the lazy-loaded donut of src/app/charts), with the
// top 5 categories and venues. Every chart keeps its numbers in a table ('Ver como tabla').
import type { CompanyStats } from '../../domain/company';
import { categorySlices, departmentSlices, monthlyBars, monthTotal, topList } from '../../domain/company-view';
import { MONTH_NAMES } from '../../domain/dates';
import type { LabelValue } from '../../domain/analytics';
import { formatMoney } from '../../domain/money';
import { ChartTable, DonutChart } from '../charts/charts';
import { percentText } from '../charts/chart-model';
import { TXT } from '../strings';

function MonthlyBars({ stats, year, month }: { stats: CompanyStats; year: number; month: number }) {
  const bars = monthlyBars(stats);
  const max = Math.max(0, ...bars.map((b) => b.value));
  const caption = `Gasto aprobado por mes de ${year}`;
  return (
    <div className="company-bars">
      <ol className="company-bars__plot" aria-hidden="true">
        {bars.map((b) => (
          <li key={b.month} className={b.month === month ? 'company-bars__bar company-bars__bar--current' : 'company-bars__bar'} title={`${b.label}: ${formatMoney(b.value)}`}>
            <span className="company-bars__fill" style={{ height: max > 0 ? `${Math.max(b.value > 0 ? 2 : 0, (b.value / max) * 100)}%` : '0%' }} />
            <span className="company-bars__label">{b.label}</span>
          </li>
        ))}
      </ol>
      <ChartTable
        caption={caption}
        columns={[{ heading: 'Mes' }, { heading: TXT.amount, numeric: true }]}
        rows={bars.map((b) => [MONTH_NAMES[b.month - 1] ?? '', formatMoney(b.value)])}
        foot={[TXT.total, formatMoney(bars.reduce((s, b) => s + b.value, 0))]}
      />
    </div>
  );
}

function Top({ title, items, total }: { title: string; items: readonly LabelValue[]; total: number }) {
  const list = topList(items, total);
  return (
    <section className="spending-summary__list" aria-label={title}>
      <h3>{title}</h3>
      {list.length === 0 ? (
        <p className="muted">{TXT.noData}</p>
      ) : (
        <ol>
          {list.map((item) => (
            <li key={item.label} className="spending-summary__item company-top__item">
              <span className="spending-summary__label">{item.label}</span>
              <span className="spending-summary__amount tabular">{formatMoney(item.value)}</span>
              <span className="spending-summary__bar" aria-hidden="true">
                <span style={{ width: `${Math.min(100, item.share)}%` }} />
              </span>
              <span className="spending-summary__change muted tabular">
                {percentText(item.share)}
                <span className="visually-hidden"> del total</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function CompanyCharts({ stats, year, month }: { stats: CompanyStats; year: number; month: number }) {
  const total = monthTotal(stats, month);
  return (
    <div className="company-view__charts">
      <section className="card stack company-view__monthly" aria-labelledby="cv-monthly">
        <h2 id="cv-monthly">Gasto aprobado por mes</h2>
        <MonthlyBars stats={stats} year={year} month={month} />
      </section>
      <section className="card stack" aria-labelledby="cv-departments">
        <h2 id="cv-departments">Gasto aprobado por departamento</h2>
        <DonutChart slices={departmentSlices(stats)} caption="Gasto aprobado por departamento" />
      </section>
      <section className="card stack company-view__summary" aria-labelledby="cv-categories">
        <h2 id="cv-categories">Resumen por categoría</h2>
        <div className="spending-summary__body">
          <DonutChart slices={categorySlices(stats, total)} caption="Gasto aprobado por categoría" />
          <div className="spending-summary__lists">
            <Top title={TXT.topCategories} items={stats.categories} total={total} />
            <Top title={TXT.topVenues} items={stats.venues} total={total} />
          </div>
        </div>
      </section>
    </div>
  );
}
