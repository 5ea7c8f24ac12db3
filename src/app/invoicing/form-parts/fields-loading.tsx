// While a merchant's form definition loads, or when it could not be loaded.
import { Button } from '../../ui/button';
import { Skeleton } from '../../ui/skeleton';
import type { FieldsState } from './use-form-fields';

/**
 * Field rows the placeholder stands for: most merchants' forms have four (three to five), so the
 * buttons under the form are already about where the fields will leave them, instead of jumping down
 * by two fields' height when they arrive (a layout shift).
 */
export const PLACEHOLDER_ROWS = 4;

export function FieldsLoading({ state, onRetry }: { state: FieldsState; onRetry: () => void }) {
  if (state.status === 'error') {
    return (
      <div className="notice notice--error stack" role="alert">
        <p>{state.offline ? 'Sin conexión — conéctate para cargar el formulario de este comercio.' : state.message}</p>
        <Button onClick={onRetry}>Reintentar</Button>
      </div>
    );
  }
  // Shaped like the fields themselves (dynamic-fields.tsx): the same rows, labels and inputs, and gaps.
  return (
    <div className="dyn-fields" role="status" aria-label="Cargando el formulario">
      {Array.from({ length: PLACEHOLDER_ROWS }, (_, i) => (
        <div key={i} className="field" aria-hidden="true">
          {/* A line of label text (a no-break space), so it is exactly as tall as a field's label. */}
          <span className="field__label skeleton" style={{ width: '40%' }}>
            {'\u00a0'}
          </span>
          <Skeleton height="var(--touch)" />
          {/* Where a field keeps its (empty) error line: one more gap, as in a field. */}
          <span />
        </div>
      ))}
    </div>
  );
}
