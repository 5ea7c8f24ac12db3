// The company screens (Empresa, Viáticos, company expenses) on a persona física's RFC: they are for
// companies only (spec §6), so say so and offer the way there: the user's company accounts in one tap,
// or adding one (a plain link, like the premium advert's). And the gate in front of them.
import { useId, type ReactNode } from 'react';
import { accountDisplayName, type Account } from '../../domain/account';
import { hasFeature, type Feature } from '../../domain/feature-gates';
import { MSG } from '../../domain/messages';
import { RFC_COMPANY_LENGTH } from '../../domain/rfc';
import { CollaboratorOr } from './collaborations';
import { PremiumAdvert } from './premium-advert';
import { useLayout } from '../layout/layout-context';
import { Button, buttonClass } from '../ui/button';
import { Icon } from '../ui/icon';
import './feature-gates.css';

export function CompanyNotice({ rfc }: { rfc: string }) {
  const titleId = useId();
  const { accounts, selectAccount } = useLayout();
  const companies = (accounts ?? []).filter((a) => a.rfc.length === RFC_COMPANY_LENGTH);
  return (
    <section className="card stack company-notice" aria-labelledby={titleId}>
      <div className="company-notice__badge" aria-hidden="true">
        <Icon name="building" />
      </div>
      <h2 id={titleId}>Solo para empresas</h2>
      <p>{MSG.companyOnly}</p>
      {companies.length > 0 ? (
        <>
          <p className="muted">El RFC {rfc} es de una persona física. Cambia a la cuenta de tu empresa:</p>
          <div className="row">
            {companies.map((a) => (
              <Button key={a.diverza_client_id} variant="primary" onClick={() => selectAccount(a.diverza_client_id)}>
                {`Usar ${accountDisplayName(a)}`}
              </Button>
            ))}
          </div>
        </>
      ) : (
        <>
          <p className="muted">El RFC {rfc} es de una persona física y aún no tienes una cuenta de empresa. Agrega el RFC de tu empresa para usar esta sección.</p>
          <div>
            <a href="/#/add-client" className={buttonClass('primary')}>
              Añadir RFC
            </a>
          </div>
        </>
      )}
    </section>
  );
}

/**
 * A company screen's gate (spec §6): a persona física's RFC without the feature sees the notice above
 * (buying a company plan would not help them), a company without it the premium advert, else the screen.
 */
export function CompanyGate({ account, feature, children }: { account: Account; feature: Feature; children: ReactNode }) {
  if (hasFeature(feature, account)) return <>{children}</>;
  const fallback = account.rfc.length !== RFC_COMPANY_LENGTH ? <CompanyNotice rfc={account.rfc} /> : <PremiumAdvert feature={feature} />;
  // A collaborator is told whose screens these are instead.
  return <CollaboratorOr rfc={account.rfc} fallback={fallback} />;
}
