// The details side panel (spec §2 Layout): the selected account's RFC, name, type, plan and country.
import { Link } from '@tanstack/react-router';
import { accountDisplayName, type Account } from '../../domain/account';
import { planById } from '../../domain/plans';
import type { PlanRow } from '../../offline/db';
import { buttonClass } from '../ui/button';
import { OffCanvas } from '../ui/overlay';
import { accountCountry, accountTypeLabel } from './account-labels';

export function planName(account: Account, plans: PlanRow[] | undefined): string {
  return plans?.find((p) => p.id === account.plan_id)?.name ?? planById(account.plan_id)?.name ?? `Plan ${account.plan_id}`;
}

export function DetailsPanel({ open, onClose, account, plans }: { open: boolean; onClose: () => void; account: Account | undefined; plans: PlanRow[] | undefined }) {
  return (
    <OffCanvas
      open={open}
      onClose={onClose}
      title="Detalles de la cuenta"
      footer={
        account && (
          <Link to="/edit-invoicement" className={buttonClass('primary')} onClick={onClose}>
            Editar información
          </Link>
        )
      }
    >
      {account ? (
        <dl className="details">
          <dt>RFC</dt>
          <dd className="tabular">{account.rfc}</dd>
          <dt>Nombre o razón social</dt>
          <dd>{accountDisplayName(account)}</dd>
          <dt>Tipo</dt>
          <dd>{accountTypeLabel(account)}</dd>
          <dt>Plan</dt>
          <dd>{planName(account, plans)}</dd>
          <dt>País</dt>
          <dd>{accountCountry(account)}</dd>
          {account.num_reg_id_trib && (
            <>
              <dt>Registro de identidad fiscal</dt>
              <dd>{account.num_reg_id_trib}</dd>
            </>
          )}
        </dl>
      ) : (
        <p className="muted">Aún no tienes un RFC registrado.</p>
      )}
    </OffCanvas>
  );
}
