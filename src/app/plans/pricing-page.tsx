// Pricing (spec §2): plan cards with 'Seleccionar' and, where a plan has one, a monthly/annual toggle.
// Choosing opens the checkout, which pays (a refused card keeps it open with the reason); once paid the
// plan's card shows a spinner while the accounts reload, and the user lands on the profile. Accounts on the app-store plan go
// straight to the profile (the plan is changed in the store).
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { MSG } from '../../domain/messages';
import { formatMoney } from '../../domain/money';
import type { Plan } from '../../domain/plans';
import { db } from '../../offline/db';
import { getSession } from '../../offline/session';
import { ApiError } from '../../offline/http';
import { syncAccounts } from '../layout/account-sync';
import { useLayout } from '../layout/layout-context';
import { Button, Spinner } from '../ui/button';
import { SkeletonCard } from '../ui/skeleton';
import { toast } from '../ui/toast-store';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { useOnline } from '../use-online';
import { CheckoutDialog } from './checkout-dialog';
import { invalidate } from '../api/query';
import { paymentHistoryKey, subscribe, subscriptionKey, type CardToken } from './plans-api';
import { cardPlan, chargeTotal, COMPANY_CARDS, mustUseAppStore, PERSONAL_CARDS, selectDisabled, type PlanCard } from './pricing-model';
import './plans.css';

/** Spec §8, verbatim. */

function PlanCardView(props: {
  card: PlanCard;
  accountPlanId: number | undefined;
  busyPlanId: number | null;
  onSelect: (plan: Plan) => void;
}) {
  const { card, accountPlanId, busyPlanId } = props;
  const [annual, setAnnual] = useState(false);
  const plan = cardPlan(card, annual);
  const toggles = card.planIds.length === 2;
  const current = accountPlanId !== undefined && (card.planIds as readonly number[]).includes(accountPlanId);
  const busy = busyPlanId !== null && (card.planIds as readonly number[]).includes(busyPlanId);
  const disabled = selectDisabled(card, accountPlanId, busyPlanId !== null);
  const titleId = `plan-${card.key}`;
  return (
    <article className={`card plan-card${current ? ' plan-card--current' : ''}`} aria-labelledby={titleId} aria-busy={busy || undefined}>
      <h2 id={titleId}>{card.title}</h2>
      {toggles && (
        <div className="plan-card__toggle" role="group" aria-label="Periodo de pago">
          <button type="button" aria-pressed={!annual} onClick={() => setAnnual(false)} disabled={busyPlanId !== null}>
            Mensual
          </button>
          <button type="button" aria-pressed={annual} onClick={() => setAnnual(true)} disabled={busyPlanId !== null}>
            Anual
          </button>
        </div>
      )}
      <p className="plan-card__price">
        <strong className="tabular">{formatMoney(plan.price)}</strong>
        <span> /mes{plan.price > 0 ? ' + IVA' : ''}</span>
      </p>
      {plan.price > 0 && (
        <p className="muted plan-card__total tabular">
          {plan.interval === 12 ? `Un pago anual de ${formatMoney(chargeTotal(plan))} con IVA` : `${formatMoney(chargeTotal(plan))} al mes con IVA`}
        </p>
      )}
      {(card.key === 'company' || card.key === 'per-diem') && <p className="muted">Más $89.00 al mes + IVA por colaborador activo.</p>}
      <p className="plan-card__summary">{plan.summary}</p>
      <div className="plan-card__action">
        {busy ? (
          <span className="plan-card__busy" role="status">
            <Spinner /> Procesando tu pago…
          </span>
        ) : (
          <Button variant={current ? 'secondary' : 'primary'} block disabled={disabled} onClick={() => props.onSelect(plan)}>
            {current ? 'Tu plan actual' : 'Seleccionar'}
          </Button>
        )}
      </div>
    </article>
  );
}

function PricingScreen({ cards, title, intro, footer }: { cards: readonly PlanCard[]; title: string; intro: string; footer?: React.ReactNode }) {
  const { selected, sync } = useLayout();
  const navigate = useNavigate();
  const online = useOnline();
  const [checkout, setCheckout] = useState<Plan | null>(null);
  const [busyPlanId, setBusyPlanId] = useState<number | null>(null);
  const notes = useScreenToasts();
  const planId = selected?.plan_id;

  useEffect(() => {
    if (mustUseAppStore(planId)) void navigate({ to: '/subscription', replace: true });
  }, [planId, navigate]);

  /** Pays inside the checkout: a refused card throws back to it (it stays open with the reason). */
  async function paid(plan: Plan, token: CardToken) {
    if (!selected) throw new ApiError(MSG.generic, 0);
    const clientId = selected.diverza_client_id;
    try {
      await subscribe(plan.id, clientId, token.id);
    } catch (err) {
      // The failed attempt is in the history now.
      void invalidate(paymentHistoryKey(clientId));
      void syncAccounts(db).catch(() => undefined);
      throw err;
    }
    setCheckout(null);
    setBusyPlanId(plan.id);
    void invalidate(paymentHistoryKey(clientId));
    void invalidate(subscriptionKey(clientId));
    await syncAccounts(db).catch(() => undefined);
    setBusyPlanId(null);
    notes.dismissAll();
    toast.success(`Listo, tu plan ${plan.name} está activo.`);
    void navigate({ to: '/subscription' });
  }

  return (
    <main id="main" className="page plans-page">
      <div className="page__title">
        <h1>{title}</h1>
      </div>
      <p className="muted">{intro}</p>
      {!online && (
        <div className="notice notice--warning" role="status">
          <p>Sin conexión — conéctate a internet para contratar un plan.</p>
        </div>
      )}
      {selected ? (
        <div className="plans-grid">
          {cards.map((card) => (
            <PlanCardView
              key={card.key}
              card={card}
              accountPlanId={online ? planId : undefined}
              busyPlanId={busyPlanId}
              onSelect={setCheckout}
            />
          ))}
        </div>
      ) : sync.status === 'error' ? (
        <div className="notice notice--error" role="alert">
          <p>{sync.message}</p>
        </div>
      ) : (
        <SkeletonCard label="Cargando planes…" lines={4} />
      )}
      {footer}
      <CheckoutDialog plan={checkout} email={getSession()?.email ?? ''} onClose={() => setCheckout(null)} onPay={paid} />
    </main>
  );
}

export function PlansPage() {
  return (
    <PricingScreen
      cards={PERSONAL_CARDS}
      title="Planes"
      intro="Elige el plan de tu RFC. Facturamos en más de 15,000 puntos de venta. Precios en pesos mexicanos."
      footer={
        <p className="muted">
          ¿Tienes una empresa con viáticos? <Link to="/plans/company">Ver planes para empresas</Link>
        </p>
      }
    />
  );
}

export function CompanyPlansPage() {
  return (
    <PricingScreen
      cards={COMPANY_CARDS}
      title="Planes para empresas"
      intro="Controla los gastos de tus colaboradores; con viáticos, además, el control de viáticos por evento con su depósito y gasto autorizado."
    />
  );
}
