// While a merchant's form definition loads, or when it could not be loaded.
import { Button } from '../../ui/button';
import { Skeleton } from '../../ui/skeleton';
import type { FieldsState } from './use-form-fields';

export function FieldsLoading({ state, onRetry }: { state: FieldsState; onRetry: () => void }) {
  if (state.status === 'error') {
    return (
      <div className="notice notice--error stack" role="alert">
        <p>{state.offline ? 'Sin conexión — conéctate para cargar el formulario de este comercio.' : state.message}</p>
        <Button onClick={onRetry}>Reintentar</Button>
      </div>
    );
  }
  return (
    <div className="stack" role="status" aria-label="Cargando el formulario">
      <Skeleton width="40%" height={14} />
      <Skeleton height={44} />
      <Skeleton width="35%" height={14} />
      <Skeleton height={44} />
    </div>
  );
}
