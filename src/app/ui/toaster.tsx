// Renders the toast store: full width at the top of the page, newest first, each with a close button.
// The band is part of the page (sticky, not floating): the top bar, the sidebar and open dialogs start
// below it (--toasts-h), so a toast never covers a heading, the account menu or a dialog's buttons.
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Icon, type IconName } from './icon';
import { getToasts, subscribeToasts, toast } from './toast-store';
import type { ToastVariant } from './toast-state';
import { TXT } from '../strings';
import './button.css';
import './toast.css';

const ICON: Record<ToastVariant, IconName> = { error: 'alert', warning: 'alert', info: 'info', success: 'check' };
/** A screen that reports a problem while it opens (a redirect's reason) keeps it: only older ones are stale. */
const NAVIGATION_GRACE_MS = 1000;

/** Publishes the band's height for the layout (--toasts-h on the root element). */
function useBandHeight(ref: React.RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty('--toasts-h', `${Math.ceil(el.getBoundingClientRect().height)}px`));
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--toasts-h');
    };
  }, [ref]);
}

/** Errors and warnings outlive nothing: editing a field or going to another screen closes them. */
function useStaleProblems(): void {
  const path = useRouterState({ select: (s) => s.location.pathname });
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    toast.dismissProblems(performance.now() - NAVIGATION_GRACE_MS);
  }, [path]);
  useEffect(() => {
    // Capture phase: runs before the screen's own handler, so a problem that edit reports stays.
    const onInput = (e: Event) => {
      if (e.isTrusted) toast.dismissProblems(performance.now());
    };
    document.addEventListener('input', onInput, true);
    return () => document.removeEventListener('input', onInput, true);
  }, []);
}

export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  const ref = useRef<HTMLDivElement>(null);
  useBandHeight(ref);
  useStaleProblems();
  // The container is a polite live region that is always present; errors interrupt as alerts.
  return (
    <div ref={ref} className="toasts" aria-live="polite" aria-relevant="additions text">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast--${t.variant}`} role={t.variant === 'error' ? 'alert' : 'status'}>
          <Icon name={ICON[t.variant]} />
          <p className="toast__text">
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
