// The subscription profile (spec §2): plan, payment method, next due date, billing data and the payment
// history table (status icon, ID uppercased, YYYY-MM-DD, money, plan name, brand and last 4).
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { accountDisplayName, type Account, type PaymentHistoryItem } from '../../domain/account';
import { displayDate } from '../../domain/dates';
import { formatMoney } from '../../domain/money';
import { planById } from '../../domain/plans';
import { ForSelectedAccount } from '../layout/for-selected-account';
import { buttonClass } from '../ui/button';
import { Icon } from '../ui/icon';
import { RfcStatus } from '../ui/rfc-status';
import { SkeletonCard } from '../ui/skeleton';
import { useOnline } from '../use-online';
import { useApiQuery } from '../api/query';
import { PlanCancellation, useSubscriptionState } from './plan-cancellation';
import { getPaymentHistory, paymentHistoryKey } from './plans-api';
import { cardLabel, dueDate, monthlyWithIva, mustUseAppStore } from './pricing-model';
import './plans.css';

export const HISTORY_EMPTY = 'Información no disponible. Tu historial aparecerá aquí cuando se hayan realizado pagos.';

/**
 * The history: from the server when online (a payment invalidates it), else, or when the server cannot
 * say, what the account carries.
 */
function useHistory(account: Account): PaymentHistoryItem[] | undefined {
  const online = useOnline();
  const id = account.diverza_client_id;
  const history = useApiQuery(paymentHistoryKey(id), ({ signal }) => getPaymentHistory(id, signal), { enabled: online });
  if (history.data) return history.data;
  if (history.isError && !history.isFetching) return account.payment_history;
  return online ? undefined : account.payment_history;
}

function HistoryTable({ items }: { items: PaymentHistoryItem[] }) {
  if (items.length === 0) return <p className="muted">{HISTORY_EMPTY}</p>;
  const sorted = [...items].sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  return (
    <table className="history-table">
      <caption className="visually-hidden">Historial de pagos</caption>
      <thead>
        <tr>
          <th scope="col">Estado</th>
          <th scope="col">ID</th>
          <th scope="col">Fecha</th>
          <th scope="col" className="history-table__num">
            Monto
          </th>
          <th scope="col">Plan</th>
          <th scope="col">Tarjeta</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((p) => (
          <tr key={p.id} className={p.successful ? '' : 'history-table__failed'}>
            <td data-label="Estado">
              <span className={p.successful ? 'pay-status pay-status--ok' : 'pay-status pay-status--failed'}>
                <Icon name={p.successful ? 'check' : 'alert'} label={p.successful ? 'Pagado' : 'Rechazado'} />
                <span aria-hidden="true">{p.successful ? 'Pagado' : 'Rechazado'}</span>
              </span>
            </td>
            <td data-label="ID" className="history-table__id">
              {p.id.toUpperCase()}
            </td>
            <td data-label="Fecha" className="tabular">
              {displayDate(p.timestamp)}
            </td>
            <td data-label="Monto" className="history-table__num tabular">
              {formatMoney(p.amount)}
            </td>
            <td data-label="Plan">{planById(p.plan_id)?.name ?? String(p.plan_id)}</td>
            <td data-label="Tarjeta">{cardLabel(p.card_brand, p.card_last4)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Profile({ account, connectedApps }: { account: Account; connectedApps: ReactNode }) {
  const plan = planById(account.plan_id);
  const history = useHistory(account);
  const subscription = useSubscriptionState(account, plan);
  const ending = subscription?.cancel_at_period_end ?? false;
  const appStore = mustUseAppStore(account.plan_id);
  const address = account.address[0];
  const place = address ? [address.street, address.external_number, address.city, address.state].filter(Boolean).join(', ') : '';
  return (
    <div className="profile-grid">
      <section className="card stack" aria-labelledby="plan-title">
        <h2 id="plan-title">Plan</h2>
        <p className="profile__plan-name">{plan?.name ?? 'Plan desconocido'}</p>
        {plan && <p className="muted">{plan.summary}</p>}
        {appStore ? (
          <p className="notice notice--info">Modifica este plan desde iTunes.</p>
        ) : (
          <div className="profile__plan-actions">
            <Link to="/plans" className={buttonClass('primary')}>
              Cambiar plan
            </Link>
            {plan && <PlanCancellation account={account} plan={plan} state={subscription} />}
          </div>
        )}
      </section>

      <section className="card stack" aria-labelledby="method-title">
        <h2 id="method-title">Método de pago</h2>
        {account.card_brand || account.card_last4 ? (
          <dl className="profile__facts">
            <dt>Tarjeta</dt>
            <dd>{cardLabel(account.card_brand, account.card_last4)}</dd>
            {account.card_exp_month && account.card_exp_year && (
              <>
                <dt>Vencimiento</dt>
                <dd className="tabular">
                  {String(account.card_exp_month).padStart(2, '0')}/{account.card_exp_year}
                </dd>
              </>
            )}
            {plan && plan.price > 0 && (
              <>
                <dt>Precio</dt>
                <dd className="tabular">
                  {formatMoney(monthlyWithIva(plan))} al mes con IVA{plan.interval === 12 ? ', pago anual' : ''}
                </dd>
              </>
            )}
            {account.active_until && (
              <>
                <dt>{ending ? 'Vigente hasta' : 'Próximo pago'}</dt>
                <dd className="tabular">{dueDate(account.active_until)}</dd>
              </>
            )}
          </dl>
        ) : (
          <p className="muted">Aún no tienes una tarjeta registrada. Se registra al contratar un plan.</p>
        )}
      </section>

      <section className="card stack" aria-labelledby="billing-title">
        <h2 id="billing-title">Datos de facturación</h2>
        <dl className="profile__facts">
          <dt>Nombre</dt>
          <dd>{accountDisplayName(account)}</dd>
          <dt>RFC</dt>
          <dd>{account.rfc}</dd>
          <dt>Verificación</dt>
          <dd>
            <RfcStatus account={account} explain />
          </dd>
          {place && (
            <>
              <dt>Domicilio</dt>
              <dd>{place}</dd>
            </>
          )}
        </dl>
        <div>
          <Link to="/edit-invoicement" className={buttonClass('secondary')}>
            <Icon name="edit" /> Editar información
          </Link>
        </div>
        <p className="muted">Enviamos los recibos de tus pagos a tu correo de inicio de sesión.</p>
      </section>

      <section className="card stack profile__history" aria-labelledby="history-title">
        <h2 id="history-title">Historial de pagos</h2>
        {history ? <HistoryTable items={history} /> : <SkeletonCard label="Cargando historial…" lines={3} />}
      </section>
      {connectedApps}
    </div>
  );
}

/** `connectedApps`: the OAuth apps the user can revoke, handed in by the composition root (screens.tsx). */
export function SubscriptionPage({ connectedApps }: { connectedApps: ReactNode }) {
  return (
    <main id="main" className="page subscription-page">
      <div className="page__title">
        <h1>Perfil</h1>
      </div>
      <ForSelectedAccount loading="Cargando perfil…">{(account) => <Profile key={account.diverza_client_id} account={account} connectedApps={connectedApps} />}</ForSelectedAccount>
    </main>
  );
}
