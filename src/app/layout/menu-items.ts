// The side menu, in ONE list. Spec §2 Layout also lists Sincronización SAT and Empresa:
// their issues (7, 8) add them here when their routes exist.
import type { IconName } from '../ui/icon';

export type MenuItem =
  | { kind: 'route'; to: '/' | '/annual' | '/ticket/new' | '/support' | '/subscription'; label: string; icon: IconName; staffOnly?: boolean }
  | { kind: 'external'; href: string; label: string; icon: IconName };

export const HELP_URL = 'https://ayuda.cuentasclaras.mx';

export const MENU_ITEMS: readonly MenuItem[] = [
  { kind: 'route', to: '/', label: 'Dashboard', icon: 'home' },
  { kind: 'route', to: '/annual', label: 'Vista Anual', icon: 'chart' },
  { kind: 'route', to: '/subscription', label: 'Perfil', icon: 'user' },
  { kind: 'route', to: '/ticket/new', label: 'Facturar ticket', icon: 'plus' },
  // Staff only (issue 7): the support inbox.
  { kind: 'route', to: '/support', label: 'Soporte', icon: 'chat', staffOnly: true },
  { kind: 'external', href: HELP_URL, label: 'Ayuda', icon: 'help' },
];
