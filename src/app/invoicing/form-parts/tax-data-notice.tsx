// Tells the user which tax data the selected account lacks for CFDI 4.0, with the link to complete it.
import { Link } from '@tanstack/react-router';
import type { Account } from '../../../domain/account';
import { missingTaxData } from './account-tax';

export function TaxDataNotice({ account }: { account: Account }) {
  const missing = missingTaxData(account);
  if (missing.length === 0) return null;
  return (
    <div className="notice notice--warning" role="status">
      <p>
        Para emitir tu factura (CFDI 4.0) necesitamos el {missing.join(' y el ')} de {account.rfc}.{' '}
        <Link to="/edit-invoicement">Editar información</Link>
      </p>
    </div>
  );
}
