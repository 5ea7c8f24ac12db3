// What the signed-in layout shares with its screens: accounts from Dexie, the selection, the period.
import { createContext, useContext } from 'react';
import type { Account } from '../../domain/account';
import type { PlanRow } from '../../offline/db';
import type { Period } from '../ui/pickers';

export type SyncState = { status: 'idle' | 'loading' | 'done' } | { status: 'error'; message: string; offline: boolean };

export interface LayoutState {
  /** undefined while Dexie has not answered yet. */
  accounts: Account[] | undefined;
  selected: Account | undefined;
  selectedIndex: number;
  selectAccount: (diverzaClientId: number) => void;
  plans: PlanRow[] | undefined;
  period: Period;
  setPeriod: (p: Period) => void;
  sync: SyncState;
  retrySync: () => void;
  openDetails: () => void;
}

export const LayoutContext = createContext<LayoutState | null>(null);

export function useLayout(): LayoutState {
  const ctx = useContext(LayoutContext);
  if (!ctx) throw new Error('useLayout outside the signed-in layout');
  return ctx;
}
