// The side menu's links (used by the desktop sidebar and the phone drawer).
import { Link } from '@tanstack/react-router';
import { Icon } from '../ui/icon';
import { MENU_ITEMS } from './menu-items';
import { useChatState } from '../chat/chat-store';

export function SideMenuLinks({ onNavigate }: { onNavigate?: () => void }) {
  const staff = useChatState().staff;
  return (
    <ul className="menu">
      {MENU_ITEMS.filter((item) => staff || !(item.kind === 'route' && item.staffOnly)).map((item) => (
        <li key={item.label}>
          {item.kind === 'route' ? (
            <Link
              to={item.to}
              className="menu__link"
              activeOptions={{ exact: true }}
              activeProps={{ 'aria-current': 'page' }}
              onClick={onNavigate}
            >
              <Icon name={item.icon} />
              <span className="menu__label">{item.label}</span>
            </Link>
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
