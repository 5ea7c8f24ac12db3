// A tiny global toast store (no React context needed): screens call toast.error(...) from anywhere.
import { TOAST_TIMEOUT_MS, toastReducer, type Toast, type ToastAction, type ToastVariant } from './toast-state';

let state: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();
/** When each toast was shown (performance.now()): a report belongs to the moment it was made. */
const shownAt = new Map<number, number>();

function dispatch(action: ToastAction): void {
  state = toastReducer(state, action);
  for (const [id, timer] of timers) {
    if (!state.some((t) => t.id === id)) {
      clearTimeout(timer);
      timers.delete(id);
      shownAt.delete(id);
    }
  }
  for (const l of listeners) l();
}

/** `timeoutMs`: a passing note may go sooner than the usual time. */
function show(variant: ToastVariant, message: string, title?: string, timeoutMs: number = TOAST_TIMEOUT_MS): number {
  const id = nextId++;
  dispatch({ type: 'add', toast: { id, variant, message, ...(title ? { title } : {}) } });
  timers.set(id, setTimeout(() => dispatch({ type: 'dismiss', id }), timeoutMs));
  shownAt.set(id, performance.now());
  return id;
}

export const toast = {
  error: (message: string, title?: string) => show('error', message, title),
  warning: (message: string, title?: string) => show('warning', message, title),
  info: (message: string, title?: string, timeoutMs?: number) => show('info', message, title, timeoutMs),
  success: (message: string, title?: string) => show('success', message, title),
  dismiss: (id: number) => dispatch({ type: 'dismiss', id }),
  clear: () => dispatch({ type: 'clear' }),
  /**
   * Closes the errors and warnings shown before `before` (a performance.now() time): they reported an
   * attempt the person has since moved on from (they edited a field, or went to another screen).
   */
  dismissProblems: (before: number) => {
    for (const t of state) {
      if ((t.variant === 'error' || t.variant === 'warning') && (shownAt.get(t.id) ?? 0) < before) dispatch({ type: 'dismiss', id: t.id });
    }
  },
};

export function getToasts(): Toast[] {
  return state;
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
