// Adjusting state when a value changes, while rendering rather than in an effect (React's "you might not
// need an effect"): the adjusted state shows in the same commit, with no render of the stale one first.
import { useState } from 'react';

/**
 * Calls `onChange` during the first render in which `value` differs from the last one seen (not on mount).
 * `onChange` may set only the calling component's own state.
 */
export function useOnChange<T>(value: T, onChange: (value: T) => void): void {
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    setSeen(value);
    onChange(value);
  }
}
