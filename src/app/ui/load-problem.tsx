// What a screen shows when its read failed (useLoad): the message as an alert and, when the connection
// was the problem, 'Reintentar' (the read also retries by itself on reconnecting).
import type { Load } from './use-load';
import { TXT } from '../strings';
import { Button } from './button';

export function LoadProblem({ state, onRetry }: { state: Extract<Load<unknown>, { kind: 'error' }>; onRetry: () => void }) {
  return (
    <div className={state.offline ? 'notice notice--warning' : 'notice notice--error'} role="alert">
      <p>{state.message}</p>
      {state.offline && (
        <p>
          <Button variant="secondary" onClick={onRetry}>
            {TXT.retry}
          </Button>
        </p>
      )}
    </div>
  );
}
