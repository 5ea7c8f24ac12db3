// The signed-out start (spec §2: the anonymous form is the signed-out start screen), framed so a newcomer
// knows whose site this is: what Cuentas Claras does in one sentence and three benefits, 'Crear cuenta
// gratis' and 'Iniciar sesión', and then the merchant's form under its own heading.
import { Link } from '@tanstack/react-router';
import { ANONYMOUS_MERCHANT, type MerchantEntry } from '../../../domain/merchants';
import { Icon } from '../../ui/icon';
import '../../ui/button.css';
import './front-door.css';

export const FRONT_DOOR_TXT = {
  title: 'Tus facturas y gastos, claros y en un solo lugar',
  lead: 'Cuentas Claras pide tus facturas a los comercios por ti, las guarda con tus gastos y te muestra en qué se va tu dinero.',
  benefits: [
    'Factura tus tickets en segundos, con su código QR o sus datos.',
    'Tus facturas y gastos a la mano, incluso sin conexión.',
    'Reportes claros de cada mes, listos para tu contador.',
  ],
  signUp: 'Crear cuenta gratis',
  signIn: 'Iniciar sesión',
} as const;

/** The heading over the anonymous form: the telecom merchant's recharge, or any other merchant's ticket. */
export function anonymousFormTitle(merchant: Pick<MerchantEntry, 'name' | 'short_name'>): string {
  return merchant.short_name === ANONYMOUS_MERCHANT
    ? `Factura tu recarga de ${merchant.name} sin crear cuenta`
    : `Factura tu ticket de ${merchant.name} sin crear cuenta`;
}

export function FrontDoorIntro() {
  return (
    <section className="front-door__intro" aria-labelledby="front-door-title">
      <h1 id="front-door-title">{FRONT_DOOR_TXT.title}</h1>
      <p className="front-door__lead">{FRONT_DOOR_TXT.lead}</p>
      <ul className="front-door__benefits">
        {FRONT_DOOR_TXT.benefits.map((b) => (
          <li key={b}>
            <Icon name="check" />
            <span>{b}</span>
          </li>
        ))}
      </ul>
      <div className="front-door__actions">
        <Link to="/register" className="btn btn--primary">
          {FRONT_DOOR_TXT.signUp}
        </Link>
        <Link to="/login" className="btn btn--secondary">
          {FRONT_DOOR_TXT.signIn}
        </Link>
      </div>
    </section>
  );
}
