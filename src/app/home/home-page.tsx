// Home (spec §2 "/" and "home"): the selected account, its plan and the chosen month. Issue 4 puts
// the dashboard (transactions and spending summary) below these cards.
import { Link } from '@tanstack/react-router';
import { accountDisplayName } from '../../domain/account';
import { monthTitle } from '../../domain/dates';
import { planById } from '../../domain/plans';
import { planName } from '../layout/details-panel';
import { accountTypeLabel } from '../layout/account-labels';
import { useLayout } from '../layout/layout-context';
import { TXT } from '../strings';
import { Button, buttonClass } from '../ui/button';
import { Icon } from '../ui/icon';
import { SkeletonCard } from '../ui/skeleton';
import './home.css';

export function HomePage() {
  const { accounts, selected, plans, period, sync, retrySync, openDetails } = useLayout();
  const loading = accounts === undefined || (accounts.length === 0 && (sync.status === 'loading' || sync.status === 'idle'));

  if (loading) {
    return (
      <main id="main" className="page">
        <div className="home-grid">
          <SkeletonCard label={TXT.loading} lines={3} />
          <SkeletonCard label={TXT.loading} lines={2} />
        </div>
      </main>
    );
  }

  if (!selected) {
    if (sync.status === 'error') {
      return (
        <main id="main" className="page">
          <div className="card stack" role="alert" style={{ alignItems: 'flex-start' }}>
            <h1>{sync.offline ? 'Sin conexión' : 'No pudimos cargar tus cuentas'}</h1>
            <p>{sync.offline ? 'Sin conexión — conéctate a internet para descargar tus RFC por primera vez en este teléfono.' : sync.message}</p>
            <Button variant="primary" onClick={retrySync}>
              {TXT.retry}
            </Button>
          </div>
        </main>
      );
    }
    return (
      <main id="main" className="page">
        <div className="card stack empty" style={{ alignItems: 'flex-start' }}>
          <Icon name="building" />
          <h1>Aún no tienes un RFC registrado</h1>
          <p className="muted">Agrega tu RFC para pedir facturas de tus compras y llevar tus gastos e ingresos.</p>
          <Link to="/add-client" className={buttonClass('primary')}>
            Añadir RFC
          </Link>
        </div>
      </main>
    );
  }

  const plan = plans?.find((p) => p.id === selected.plan_id) ?? planById(selected.plan_id);

  return (
    <main id="main" className="page">
      <div className="page__title">
        <h1>
          {monthTitle(period.month)} {period.year}
        </h1>
        {sync.status === 'loading' && <span className="muted">Actualizando…</span>}
      </div>
      {sync.status === 'error' && !sync.offline && (
        <div className="notice notice--error row row--between" role="alert" style={{ marginBottom: 16 }}>
          <span>{sync.message}</span>
          <Button variant="secondary" onClick={retrySync}>
            {TXT.retry}
          </Button>
        </div>
      )}
      <div className="home-grid">
        <section className="card stack" aria-labelledby="home-account">
          <div>
            <p className="eyebrow">{accountTypeLabel(selected)}</p>
            <h2 id="home-account" className="home-account__name">
              {accountDisplayName(selected)}
            </h2>
            <p className="tabular home-account__rfc">
              <span className="muted">RFC </span>
              {selected.rfc}
            </p>
          </div>
          <div className="row">
            <Button variant="secondary" onClick={openDetails}>
              <Icon name="info" />
              Ver detalles
            </Button>
            <Link to="/edit-invoicement" className={buttonClass('ghost')}>
              <Icon name="edit" />
              Editar información
            </Link>
          </div>
        </section>
        <section className="card stack" aria-labelledby="home-plan">
          <div>
            <p className="eyebrow">Tu plan</p>
            <h2 id="home-plan">{planName(selected, plans)}</h2>
            {plan?.summary && <p className="muted">{plan.summary}</p>}
          </div>
        </section>
      </div>
    </main>
  );
}
