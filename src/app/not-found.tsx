// Spec §2: any unknown route shows 'Este recurso no existe' with a link to the dashboard.
import { Link } from '@tanstack/react-router';
import { MSG } from '../domain/messages';
import { buttonClass } from './ui/button';

export function NotFound() {
  return (
    <main className="page page--narrow" id="main">
      <div className="card stack stack--start">
        <h1>{MSG.notFound}</h1>
        <p className="muted">Revisa la dirección o vuelve a tu tablero.</p>
        <Link to="/" className={buttonClass('primary')}>
          Ir al Dashboard
        </Link>
      </div>
    </main>
  );
}
