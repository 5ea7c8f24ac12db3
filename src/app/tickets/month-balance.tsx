// Income vs expenses (spec §2: home also shows an income-vs-expenses summary; §9: income = types 3
// and 4, expenses = type 2, balance = income − expenses), from the month's tickets on the device, so
// it works offline and follows every local change at once. BalanceFigures also serves the annual view.
import { useLiveQuery } from 'dexie-react-hooks';
import { balance } from '../../domain/analytics';
import { monthKey } from '../../domain/dates';
import { formatMoney } from '../../domain/money';
import { db } from '../../offline/db';
import { isMonthSeen } from '../../offline/pull';
import { monthOfYear } from '../charts/chart-model';
import { TXT } from '../strings';
import { Skeleton } from '../ui/skeleton';

export interface Figures {
  income: number;
  expenses: number;
  balance: number;
}

/**
 * Ingresos, Gastos and Balance as a description list: skeletons while `figures` is loading (undefined),
 * dashes when there is nothing to count yet (null: a month this device has not pulled).
 */
export function BalanceFigures({ figures, stacked = false }: { figures: Figures | null | undefined; stacked?: boolean }) {
  const value = (n: number | undefined) =>
    figures === undefined ? <Skeleton width="80%" height={22} /> : n === undefined ? (
      <>
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">{TXT.noData}</span>
      </>
    ) : formatMoney(n);
  return (
    <dl className={stacked ? 'balance-figures balance-figures--stacked' : 'balance-figures'} aria-busy={figures === undefined || undefined}>
      <div>
        <dt>{TXT.income}</dt>
        <dd className="balance-figures__income tabular">{value(figures?.income)}</dd>
      </div>
      <div>
        <dt>{TXT.expenses}</dt>
        <dd className="tabular">{value(figures?.expenses)}</dd>
      </div>
      <div>
        <dt>{TXT.balance}</dt>
        <dd className="tabular">{value(figures?.balance)}</dd>
      </div>
    </dl>
  );
}

export function MonthBalance({ rfc, year, month }: { rfc: string; year: number; month: number }) {
  const figures = useLiveQuery(async () => {
    // Only the two fields the sums need are kept while reading the month.
    const rows: { ticket_type_id: number; amount: string }[] = [];
    await db.tickets
      .where('[rfc+month]')
      .equals([rfc, monthKey(year, month)])
      .each((t) => void rows.push({ ticket_type_id: t.ticket_type_id, amount: t.amount }));
    // Nothing here and never pulled: unknown, not zero (the pull marks it seen and this runs again).
    if (rows.length === 0 && !(await isMonthSeen(db, rfc, year, month))) return null;
    return balance(rows);
  }, [rfc, year, month]);
  return (
    <section className="card month-balance" aria-labelledby="month-balance-title">
      <h2 id="month-balance-title">{`${TXT.income} y ${TXT.expenses.toLowerCase()} de ${monthOfYear(month, year)}`}</h2>
      <BalanceFigures figures={figures} />
    </section>
  );
}
