// The account dropdown (spec §2 Layout): current account, other accounts under 'Razones Sociales',
// 'Añadir RFC' and 'Salir'. A disclosure with plain buttons and links: simple for keyboards and readers.
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { accountDisplayName, type Account } from '../../domain/account';
import { Icon } from '../ui/icon';
import { RfcStatus } from '../ui/rfc-status';

export function AccountMenu({
  accounts,
  selected,
  onSelect,
  onLogout,
}: {
  accounts: Account[];
  selected: Account | undefined;
  onSelect: (id: number) => void;
  onLogout: () => void;
}) {
  const [open, setOpen] = useState(false);
  const wrapRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    function onDown(e: MouseEvent) {
      if (wrapRef.current && !wrapRef.current.contains(e.target as Node)) setOpen(false);
    }
    function onKey(e: KeyboardEvent) {
      if (e.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    }
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const others = accounts.filter((a) => a.diverza_client_id !== selected?.diverza_client_id);
  const name = selected ? accountDisplayName(selected) : 'Mi cuenta';

  return (
    <div className="account-menu" ref={wrapRef}>
      <button
        ref={buttonRef}
        type="button"
        className="account-menu__button"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`Cuenta: ${name}${selected ? `, RFC ${selected.rfc}` : ''}`}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="user" />
        <span className="account-menu__current">
          <span className="account-menu__name">{name}</span>
          {selected && <span className="account-menu__rfc">{selected.rfc}</span>}
        </span>
        <Icon name="chevronDown" />
      </button>
      <div id={menuId} className="account-menu__panel" hidden={!open}>
        {selected && (
          <div className="account-menu__head">
            <strong>{name}</strong>
            <span className="muted tabular">{selected.rfc}</span>
            <RfcStatus account={selected} onNavigate={() => setOpen(false)} />
          </div>
        )}
        {others.length > 0 && (
          <section aria-labelledby={`${menuId}-h`}>
            <h3 id={`${menuId}-h`} className="account-menu__heading">
              Razones Sociales
            </h3>
            <ul className="account-menu__list">
              {others.map((a) => (
                <li key={a.diverza_client_id}>
                  <button
                    type="button"
                    className="account-menu__item"
                    onClick={() => {
                      onSelect(a.diverza_client_id);
                      setOpen(false);
                    }}
                  >
                    <span>{accountDisplayName(a)}</span>
                    <span className="muted tabular">{a.rfc}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
        <ul className="account-menu__list account-menu__actions">
          <li>
            <Link to="/add-client" className="account-menu__item account-menu__item--row" onClick={() => setOpen(false)}>
              <Icon name="plus" />
              <span>Añadir RFC</span>
            </Link>
          </li>
          <li>
            <button
              type="button"
              className="account-menu__item account-menu__item--row"
              onClick={() => {
                setOpen(false);
                onLogout();
              }}
            >
              <Icon name="logout" />
              <span>Salir</span>
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
