// Modal and off-canvas panel: focus trapped inside, Escape closes, focus returns to the opener,
// and a 200 ms fade (spec §9) that reduced-motion turns off.
import { useEffect, useEffectEvent, useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from './icon';
import { TXT } from '../strings';
import './button.css';
import './overlay.css';

const FADE_MS = 200;
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps the overlay mounted for the fade-out after `open` turns false. */
function useFade(open: boolean): { mounted: boolean; closing: boolean } {
  const [mounted, setMounted] = useState(open);
  // Opening mounts at once (adjusting state while rendering); closing unmounts after the fade.
  if (open && !mounted) setMounted(true);
  useEffect(() => {
    if (open) return;
    const t = setTimeout(() => setMounted(false), FADE_MS);
    return () => clearTimeout(t);
  }, [open]);
  return { mounted: open || mounted, closing: !open && mounted };
}

/** Open traps, newest last: only the topmost one handles keys (a confirm over a panel). */
const traps: object[] = [];

export function useFocusTrap(open: boolean, container: React.RefObject<HTMLElement | null>, onClose: () => void) {
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (!open) return;
    const self = {};
    traps.push(self);
    const opener = document.activeElement as HTMLElement | null;
    const el = container.current;
    const first = el?.querySelector<HTMLElement>('[data-autofocus]') ?? el?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? el)?.focus();
    function onKey(e: KeyboardEvent) {
      if (traps[traps.length - 1] !== self) return;
      if (e.key === 'Escape') {
        e.stopPropagation();
        close();
        return;
      }
      if (e.key !== 'Tab' || !el) return;
      const items = Array.from(el.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((n) => n.offsetParent !== null);
      if (items.length === 0) {
        e.preventDefault();
        return;
      }
      const firstItem = items[0]!;
      const lastItem = items[items.length - 1]!;
      if (e.shiftKey && document.activeElement === firstItem) {
        e.preventDefault();
        lastItem.focus();
      } else if (!e.shiftKey && document.activeElement === lastItem) {
        e.preventDefault();
        firstItem.focus();
      }
    }
    document.addEventListener('keydown', onKey, true);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey, true);
      traps.splice(traps.indexOf(self), 1);
      document.body.style.overflow = overflow;
      if (opener && document.contains(opener)) opener.focus();
    };
  }, [open, container]);
}

interface OverlayProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}

function Panel({ open, onClose, title, children, footer, kind }: OverlayProps & { kind: 'modal' | 'offcanvas' | 'drawer' }) {
  const { mounted, closing } = useFade(open);
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useFocusTrap(open && mounted, ref, onClose);
  if (!mounted) return null;
  const placement = kind === 'modal' ? 'overlay--center' : kind === 'drawer' ? 'overlay--drawer' : 'overlay--sheet';
  const overlayClass = `overlay ${placement}${closing ? ' overlay--closing' : ''}`;
  return createPortal(
    <div
      className={overlayClass}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        className={kind}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <div className="panel__head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="btn btn--ghost btn--icon" onClick={onClose} aria-label={TXT.close}>
            <Icon name="close" />
          </button>
        </div>
        <div className="panel__body">{children}</div>
        {footer && <div className="panel__foot">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}

export function Modal(props: OverlayProps) {
  return <Panel {...props} kind="modal" />;
}

export function OffCanvas(props: OverlayProps) {
  return <Panel {...props} kind="offcanvas" />;
}

/** The phone menu: slides in from the left. */
export function Drawer(props: OverlayProps) {
  return <Panel {...props} kind="drawer" />;
}
