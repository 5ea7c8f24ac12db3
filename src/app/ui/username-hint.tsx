// Under a new user name (sign-up wizard, invitation): the spec's rule, the name as it will be saved
// ('Lupita Gómez' → lupitagomez), and whether it is free (api/username-availability.ts).
import { MSG } from '../../domain/messages';
import type { UsernameState } from '../api/username-availability';
import { Icon } from './icon';
import './username-hint.css';

const USERNAME_STATUS: Record<UsernameState, string> = {
  idle: '',
  checking: 'Comprobando si está libre…',
  available: 'Está libre',
  taken: '',
  unknown: 'No pudimos comprobar si está libre; lo revisamos al crear tu cuenta.',
};

/** Under the user name: the spec's hint, the name as it will be saved, and whether it is free. */
export function UsernameHint({ username, state }: { username: string; state: UsernameState }) {
  return (
    <>
      <span className="username-hint__rule">{MSG.usernameHint}</span>
      {username && (
        <span className="username-hint__preview">
          Tu usuario será: <strong className="username-hint__name">{username}</strong>
        </span>
      )}
      <span role="status" className={`username-hint__status username-hint__status--${state}`}>
        {state === 'available' && <Icon name="check" />}
        {USERNAME_STATUS[state]}
      </span>
    </>
  );
}
