// What a screen shows when its read failed (useApiQuery): the message as an alert and, when the
// connection was the problem, 'Reintentar' (the read also tries again by itself on reconnecting).
import { TXT } from '../strings';
import { Button } from '../ui/button';
import { isOffline } from './query';

export function QueryProblem({ error, message, onRetry }: { error: unknown; message: string; onRetry: () => void }) {
  const offline = isOffline(error);
  return (
    <div className={offline ? 'notice notice--warning' : 'notice notice--error'} role="alert">
      <p>{message}</p>
      {offline && (
        <p>
          <Button variant="secondary" onClick={onRetry}>
            {TXT.retry}
          </Button>
        </p>
      )}
    </div>
  );
}
