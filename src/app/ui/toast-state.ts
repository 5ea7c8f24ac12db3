// Toast rules of spec §9 as a pure reducer: newest first, no duplicates, closed by hand or after 20 s.
export type ToastVariant = 'error' | 'warning' | 'info' | 'success';

export const TOAST_TIMEOUT_MS = 20_000;

export interface Toast {
  id: number;
  variant: ToastVariant;
  message: string;
  title?: string;
}

export type ToastAction =
  | { type: 'add'; toast: Toast }
  | { type: 'dismiss'; id: number }
  | { type: 'clear' };

const sameToast = (a: Toast, b: Toast) => a.variant === b.variant && a.message === b.message && a.title === b.title;

export function toastReducer(state: readonly Toast[], action: ToastAction): Toast[] {
  switch (action.type) {
    case 'add': {
      // A repeat is not shown twice: the existing one moves to the top with the new id (its timer restarts).
      const rest = state.filter((t) => !sameToast(t, action.toast));
      return [action.toast, ...rest];
    }
    case 'dismiss':
      return state.filter((t) => t.id !== action.id);
    case 'clear':
      return [];
  }
}
