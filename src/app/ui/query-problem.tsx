// What a screen shows when its read failed (api/query.ts's useApiQuery): the message as an alert and, when the
// connection was the problem, 'Reintentar' (the read also tries again by itself on reconnecting).
import { TXT } from '../strings';
import { ApiError } from '../../offline/http';
import { Button } from './button';

export function QueryProblem({ error, message, onRetry }: { error: unknown; message: string; onRetry: () => void }) {
  const offline = error instanceof ApiError && error.offline;
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
