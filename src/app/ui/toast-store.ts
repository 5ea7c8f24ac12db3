// A tiny global toast store (no React context needed): screens call toast.error(...) from anywhere.
import { TOAST_TIMEOUT_MS, toastReducer, type Toast, type ToastAction, type ToastVariant } from './toast-state';

let state: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function dispatch(action: ToastAction): void {
  state = toastReducer(state, action);
  for (const [id, timer] of timers) {
    if (!state.some((t) => t.id === id)) {
      clearTimeout(timer);
      timers.delete(id);
    }
  }
  for (const l of listeners) l();
}

function show(variant: ToastVariant, message: string, title?: string): number {
  const id = nextId++;
  dispatch({ type: 'add', toast: { id, variant, message, ...(title ? { title } : {}) } });
  timers.set(id, setTimeout(() => dispatch({ type: 'dismiss', id }), TOAST_TIMEOUT_MS));
  return id;
}

export const toast = {
  error: (message: string, title?: string) => show('error', message, title),
  warning: (message: string, title?: string) => show('warning', message, title),
  info: (message: string, title?: string) => show('info', message, title),
  success: (message: string, title?: string) => show('success', message, title),
  dismiss: (id: number) => dispatch({ type: 'dismiss', id }),
  clear: () => dispatch({ type: 'clear' }),
};

export function getToasts(): Toast[] {
  return state;
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
