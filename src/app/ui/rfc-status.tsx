// Whether an account proved its RFC: 'RFC verificado', or the 'Verificar RFC' link to the verify screen.
// Shared by the account menu and Perfil (a plain link, like the premium advert: no router context needed).
import { isRfcVerified } from '../../domain/rfc-verification';
import type { Account } from '../../domain/account';
import { Icon } from './icon';
import './rfc-status.css';

export const RFC_STATUS_TXT = {
  verified: 'RFC verificado',
  unverified: 'RFC sin verificar',
  verify: 'Verificar RFC',
  why: 'Verifícalo con tu e.firma o tu contraseña del SAT para invitar colaboradores e importar facturas por su folio.',
} as const;

export const VERIFY_RFC_HREF = '/#/verify-rfc';

export function RfcStatus({ account, onNavigate, explain = false }: { account: Pick<Account, 'rfc_verified'>; onNavigate?: () => void; explain?: boolean }) {
  if (isRfcVerified(account)) {
    return (
      <span className="rfc-status rfc-status--ok">
        <Icon name="check" /> {RFC_STATUS_TXT.verified}
      </span>
    );
  }
  return (
    <span className="rfc-status">
      <span className="rfc-status__state">
        <Icon name="alert" /> {RFC_STATUS_TXT.unverified}
      </span>
      {explain && <span className="muted rfc-status__why">{RFC_STATUS_TXT.why}</span>}
      <a className="rfc-status__link" href={VERIFY_RFC_HREF} onClick={onNavigate}>
        {RFC_STATUS_TXT.verify}
      </a>
    </span>
  );
}
