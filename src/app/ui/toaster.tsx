// Renders the toast store: full width at the top, newest first, each with a close button.
import { useSyncExternalStore } from 'react';
import { Icon, type IconName } from './icon';
import { getToasts, subscribeToasts, toast } from './toast-store';
import type { ToastVariant } from './toast-state';
import { TXT } from '../strings';
import './button.css';
import './toast.css';

const ICON: Record<ToastVariant, IconName> = { error: 'alert', warning: 'alert', info: 'info', success: 'check' };

export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  // The container is a polite live region that is always present; errors interrupt as alerts.
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions text">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast--${t.variant}`} role={t.variant === 'error' ? 'alert' : undefined}>
          <Icon name={ICON[t.variant]} />
          <p className="toast__text" style={{ margin: 0 }}>
            {t.title && <strong className="toast__title">{t.title}</strong>}
            {t.message}
          </p>
          <button type="button" className="btn btn--ghost btn--icon" aria-label={TXT.close} onClick={() => toast.dismiss(t.id)}>
            <Icon name="close" />
          </button>
        </div>
      ))}
    </div>
  );
}
