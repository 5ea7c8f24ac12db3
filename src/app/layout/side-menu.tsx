// The side menu's links (used by the desktop sidebar and the phone drawer). Staff-only links show when the
// layout says the user is staff (the support chat knows).
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { Icon } from '../ui/icon';
import { MENU_ITEMS, type RouteItem } from './menu-items';

function RouteLink({ item, onNavigate }: { item: RouteItem; onNavigate?: () => void }) {
  return (
    <Link to={item.to} className="menu__link" activeOptions={{ exact: true }} activeProps={{ 'aria-current': 'page' }} onClick={onNavigate}>
      <Icon name={item.icon} />
      <span className="menu__label">{item.label}</span>
    </Link>
  );
}

/** A submenu (Empresa): its title, then its links indented under it. */
function Group({ label, icon, items, onNavigate }: { label: string; icon: RouteItem['icon']; items: readonly RouteItem[]; onNavigate?: () => void }) {
  const titleId = useId();
  return (
    <>
      <span className="menu__group" id={titleId}>
        <Icon name={icon} />
        <span className="menu__label">{label}</span>
      </span>
      <ul className="menu menu--sub" aria-labelledby={titleId}>
        {items.map((item) => (
          <li key={item.to}>
            <RouteLink item={item} onNavigate={onNavigate} />
          </li>
        ))}
      </ul>
    </>
  );
}

export function SideMenuLinks({ staff, onNavigate }: { staff: boolean; onNavigate?: () => void }) {
  return (
    <ul className="menu">
      {MENU_ITEMS.filter((item) => staff || !(item.kind === 'route' && item.staffOnly)).map((item) => (
        <li key={item.label}>
          {item.kind === 'route' ? (
            <RouteLink item={item} onNavigate={onNavigate} />
          ) : item.kind === 'group' ? (
            <Group label={item.label} icon={item.icon} items={item.items} onNavigate={onNavigate} />
          ) : (
            <a className="menu__link" href={item.href} target="_blank" rel="noopener noreferrer" onClick={onNavigate}>
              <Icon name={item.icon} />
              <span className="menu__label">
                {item.label}
                <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
              </span>
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}
