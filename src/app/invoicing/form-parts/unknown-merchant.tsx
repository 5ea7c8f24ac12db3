// Unknown merchant short name (spec §2): 'Ups...' with a way back.
import { Link } from '@tanstack/react-router';
import { MSG } from '../../../domain/messages';
import './unknown-merchant.css';

export function UnknownMerchant({ home = '/' }: { home?: '/' | '/login' }) {
  return (
    <main id="main" className="page page--form">
      <div className="card stack invoice-empty" role="alert">
        <h1>{MSG.unknownMerchant}</h1>
        <p>
          <Link to={home}>{home === '/' ? 'Ir al Dashboard' : 'Ir al inicio'}</Link>
        </p>
      </div>
    </main>
  );
}
