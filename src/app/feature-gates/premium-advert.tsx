// The premium advert shown instead of a gated feature (spec §2, §6): what the feature needs, a link to
// the plans, and 'Iniciar contacto', which opens the support chat with a prefilled message.
import type { Feature } from '../../domain/feature-gates';
import { openSupportChat } from '../layout/open-chat';
import { buttonClass, Button } from '../ui/button';
import { Icon } from '../ui/icon';
import './feature-gates.css';

const FEATURE_LABEL: Record<Feature, string> = {
  SincronizacionSAT: 'la sincronización con el SAT',
  Viaticos: 'el control de viáticos',
  Colaboradores: 'los colaboradores de tu empresa',
  Gastos: 'el control de gastos de tu empresa',
};

/** Company features send to the company pricing page; the rest to the profile, where 'Cambiar plan' is. */
const COMPANY_FEATURES: readonly Feature[] = ['Viaticos', 'Colaboradores', 'Gastos'];

export function premiumChatMessage(feature: Feature): string {
  return `Hola, me interesa contratar un plan que incluya ${FEATURE_LABEL[feature]}.`;
}

/** Plain links (no router context needed): it may be shown by any screen, even outside the layout. */
export function PremiumAdvert({ feature }: { feature: Feature }) {
  const company = COMPANY_FEATURES.includes(feature);
  return (
    <section className="card stack premium-advert" aria-labelledby="premium-advert-title">
      <div className="premium-advert__badge" aria-hidden="true">
        <Icon name="info" />
      </div>
      <h2 id="premium-advert-title">Función Premium</h2>
      <p>
        Para usar {FEATURE_LABEL[feature]} necesitas un plan superior. Cambia tu plan y empieza hoy, o escríbenos y te ayudamos a
        elegir.
      </p>
      <div className="row">
        {company ? (
          <a href="/#/plans/company" className={buttonClass('primary')}>
            Ver planes para empresas
          </a>
        ) : (
          <a href="/#/subscription" className={buttonClass('primary')}>
            Ver mi plan
          </a>
        )}
        <Button onClick={() => openSupportChat(premiumChatMessage(feature))}>Iniciar contacto</Button>
      </div>
      {company && (
        <p className="muted">
          También puedes revisar tu plan actual en tu <a href="/#/subscription">Perfil</a>.
        </p>
      )}
    </section>
  );
}
