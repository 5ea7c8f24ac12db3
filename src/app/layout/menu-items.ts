// The side menu, in ONE list, in spec §2 Layout's order: Dashboard, Vista Anual, Sincronización SAT,
// the Empresa submenu (collaborators, company expenses, per-diem), Perfil, Facturar ticket, Ayuda.
import type { IconName } from '../ui/icon';

export interface RouteItem {
  kind: 'route';
  to: '/' | '/annual' | '/ticket/new' | '/support' | '/subscription' | '/sync' | '/company' | '/per-diem' | '/company-view';
  label: string;
  icon: IconName;
  staffOnly?: boolean;
}

export type MenuItem = RouteItem | { kind: 'external'; href: string; label: string; icon: IconName } | { kind: 'group'; label: string; icon: IconName; items: readonly RouteItem[] };

export const HELP_URL = 'https://ayuda.cuentasclaras.mx';

export const MENU_ITEMS: readonly MenuItem[] = [
  { kind: 'route', to: '/', label: 'Dashboard', icon: 'home' },
  { kind: 'route', to: '/annual', label: 'Vista Anual', icon: 'chart' },
  { kind: 'route', to: '/sync', label: 'Sincronización SAT', icon: 'upload' },
  {
    kind: 'group',
    label: 'Empresa',
    icon: 'building',
    items: [
      { kind: 'route', to: '/company', label: 'Colaboradores', icon: 'user' },
      { kind: 'route', to: '/company-view', label: 'Gastos', icon: 'chart' },
      { kind: 'route', to: '/per-diem', label: 'Viáticos', icon: 'check' },
    ],
  },
  { kind: 'route', to: '/subscription', label: 'Perfil', icon: 'user' },
  { kind: 'route', to: '/ticket/new', label: 'Facturar ticket', icon: 'plus' },
  // Staff only: the support inbox.
  { kind: 'route', to: '/support', label: 'Soporte', icon: 'chat', staffOnly: true },
  { kind: 'external', href: HELP_URL, label: 'Ayuda', icon: 'help' },
];
