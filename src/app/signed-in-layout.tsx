// The signed-in layout (spec §2 Layout): top bar with month picker and account menu, pinnable side
// menu (a drawer on phones), details panel, footer. It renders from Dexie at once, then syncs. It sits in the
// composition root because it puts features together: the outbox's button and banners, the support chat.
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Account } from '../domain/account';
import { mexicoCityDate } from '../domain/mexico-time';
import { APP_VERSION } from '../domain/http';
import { MSG } from '../domain/messages';
import { db } from '../offline/db';
import { listAccounts } from '../offline/local-data';
import { DEFAULT_PREFS, loadPrefs, savePrefs, takePreloadedPrefs, type Prefs } from '../offline/prefs';
import { wipeLocalData } from '../offline/wipe';
import { hasSession } from '../offline/session';
import { ApiError } from '../offline/http';
import { logout } from './api/endpoints';
import { TXT } from './strings';
import { Icon } from './ui/icon';
import { Drawer } from './ui/overlay';
import { MonthYearPicker, YearPicker, type Period } from './ui/pickers';
import { toast } from './ui/toast-store';
import { useStableLiveQuery } from './ui/use-stable-live-query';
import { useBackOnline, useOnline } from './use-online';
import { AuthPausedBanner, LogoutConfirm, OutboxButton, useDrainTriggers, usePendingCount } from './outbox/outbox-view';
import { AccountMenu } from './layout/account-menu';
import { syncAccounts, syncReferenceLists } from './layout/account-sync';
import { DetailsPanel } from './layout/details-panel';
import { ChatWidget, chatSlotRef } from './chat/chat-widget';
import { useChatState } from './chat/chat-store';
import { LayoutContext, type LayoutState, type SyncState } from './layout/layout-context';
import { SideMenuLinks } from './layout/side-menu';
import './layout/layout.css';

/** The menu's links; staff see the support inbox too. Its own component, so a chat poll re-renders only the menu. */
function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const staff = useChatState().staff;
  return <SideMenuLinks staff={staff} {...(onNavigate ? { onNavigate } : {})} />;
}

const SYNC_LOADING: SyncState = { status: 'loading' };

/**
 * Which period picker the top bar shows on a route: the month on the screens that read a month (the
 * dashboard, the company's expense view), the year on the annual view (spec §2 Layout), none elsewhere —
 * a picker that changes nothing on the screen only misleads.
 */
export function periodPickerFor(pathname: string): 'month' | 'year' | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/home' || path === '/company-view') return 'month';
  if (path === '/annual') return 'year';
  return null;
}

function currentPeriod(): Period {
  const { year, month } = mexicoCityDate();
  return { year, month };
}

/** The user's accounts pulled from the server: once on mount, on 'Reintentar' and when back online after an offline failure. */
function useAccountSync(): { sync: SyncState; runSync: () => void } {
  // One account pull per attempt; its answer counts only for the attempt it belongs to.
  const [syncAttempt, setSyncAttempt] = useState(0);
  const [synced, setSynced] = useState<{ attempt: number; sync: SyncState } | null>(null);
  const sync: SyncState = synced?.attempt === syncAttempt ? synced.sync : SYNC_LOADING;
  const runSync = useCallback(() => setSyncAttempt((n) => n + 1), []);
  // Back online after a failed pull: try again without asking.
  useBackOnline(sync.status === 'error' && sync.offline, runSync);

  useEffect(() => {
    const attempt = syncAttempt;
    syncAccounts(db).then(
      () => {
        setSynced({ attempt, sync: { status: 'done' } });
        void syncReferenceLists(db);
      },
      (err: unknown) => {
        const e = err instanceof ApiError ? err : new ApiError(MSG.generic, 0);
        if (e.status === 401) return; // the API client already signs out
        setSynced({ attempt, sync: { status: 'error', message: e.message, offline: e.offline } });
      },
    );
  }, [syncAttempt]);
  return { sync, runSync };
}

/**
 * Signs out and leaves nothing behind: the server's session, then every local row; a fresh document for
 * whoever signs in next (nothing of this user's in memory, and the database opens anew).
 */
async function leaveAndWipe(): Promise<void> {
  try {
    await logout();
  } catch {
    // Offline or already signed out: the local wipe below is what matters.
  }
  // Closed for good: a live query or a sync still finishing must not reopen the database — that would
  // hold up its deletion, or create it again with the leaving user's rows.
  await wipeLocalData({ closeDb: () => db.close({ disableAutoOpen: true }) });
  toast.clear();
  // It stays closed in this document: reload into the sign-in screen.
  history.replaceState(null, '', '#/login');
  location.reload();
}

/** The top bar: menu button (phones), brand, the month (or year) picker where the screen uses one, the outbox, details and the account menu. */
function TopBar({ picker, period, onPeriod, pending, accounts, selected, onSelect, onMenu, onDetails, onLogout, chatSlot }: {
  picker: 'month' | 'year' | null;
  period: Period;
  onPeriod: (period: Period) => void;
  pending: number;
  accounts: Account[];
  selected: Account | undefined;
  onSelect: (id: number) => void;
  onMenu: () => void;
  onDetails: () => void;
  onLogout: () => void;
  /** Where the support chat puts its button: the bar's last place. */
  chatSlot: (el: HTMLDivElement | null) => void;
}) {
  return (
    <header className="topbar">
      <button type="button" className="btn btn--ghost btn--icon topbar__menu" aria-label="Abrir menú" onClick={onMenu}>
        <Icon name="menu" />
      </button>
      <a className="topbar__brand" href="#/">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        <span>Cuentas Claras</span>
      </a>
      {/* Kept when empty: it is the space that pushes the buttons to the end. */}
      <div className="topbar__picker">
        {picker === 'year' && <YearPicker value={period.year} onChange={(year) => onPeriod({ year, month: period.month })} />}
        {picker === 'month' && <MonthYearPicker value={period} onChange={onPeriod} />}
      </div>
      <div className="topbar__end">
        <OutboxButton count={pending} />
        <button type="button" className="btn btn--ghost btn--icon topbar__details" aria-label="Detalles de la cuenta" onClick={onDetails}>
          <Icon name="info" />
        </button>
        <AccountMenu accounts={accounts} selected={selected} onSelect={onSelect} onLogout={onLogout} />
      </div>
      <div className="topbar__chat" ref={chatSlot} />
    </header>
  );
}

export function SignedInLayout() {
  const online = useOnline();
  // Accounts and plans in one live query, shown together with the stored prefs: the screen below renders
  // once with all three instead of once per answer (and never first with the default account).
  const local = useStableLiveQuery(() => Promise.all([listAccounts(db), db.plans.toArray()]));
  // Usually read already at start-up (main.tsx), so the first render has them: one render less.
  const [prefs, setPrefs] = useState<Prefs | null>(takePreloadedPrefs);
  const prefsKnown = prefs !== null;
  const accounts = prefs ? local?.[0] : undefined;
  const plans = prefs ? local?.[1] : undefined;
  const [period, setPeriod] = useState<Period>(currentPeriod);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [confirmLogout, setConfirmLogout] = useState(false);
  const { authPaused } = useDrainTriggers();
  const pending = usePendingCount();
  const href = useRouterState({ select: (s) => s.location.href });
  const picker = useRouterState({ select: (s) => periodPickerFor(s.location.pathname) });

  // Remember where the user was (prefs.lastRoute), e.g. for a later "continue where you left off".
  useEffect(() => {
    // Not once logout has cleared the session: the wipe must leave nothing behind.
    if (!hasSession()) return;
    void savePrefs({ lastRoute: href }).catch(() => undefined);
  }, [href]);

  useEffect(() => {
    if (prefsKnown) return;
    let live = true;
    void loadPrefs().then((p) => live && setPrefs(p));
    return () => {
      live = false;
    };
  }, [prefsKnown]);

  const { sync, runSync } = useAccountSync();

  const count = accounts?.length ?? 0;
  const selectedIndex = count === 0 || !prefs ? 0 : Math.min(prefs.defaultAccountIndex, count - 1);
  const selected = accounts?.[selectedIndex];

  // Reads the list from Dexie, not from the live query, so an account just added is found too.
  const selectAccount = useCallback((id: number) => {
    void listAccounts(db).then((list) => {
      const index = list.findIndex((a) => a.diverza_client_id === id);
      if (index < 0) return;
      setPrefs((p) => ({ ...(p ?? DEFAULT_PREFS), defaultAccountIndex: index }));
      void savePrefs({ defaultAccountIndex: index });
    });
  }, []);

  const togglePinned = () => {
    const sidebarPinned = !prefs?.sidebarPinned;
    setPrefs((p) => ({ ...(p ?? DEFAULT_PREFS), sidebarPinned }));
    void savePrefs({ sidebarPinned });
  };

  async function onLogout(confirmed = false) {
    // Unsent operations would be wiped with the rest: ask first.
    if (!confirmed && pending > 0) {
      setConfirmLogout(true);
      return;
    }
    setConfirmLogout(false);
    setLeaving(true);
    await leaveAndWipe();
  }

  const state: LayoutState = useMemo(
    () => ({
      accounts,
      selected,
      selectedIndex,
      selectAccount,
      plans,
      period,
      setPeriod,
      sync,
      retrySync: runSync,
      openDetails: () => setDetailsOpen(true),
    }),
    [accounts, selected, selectedIndex, selectAccount, plans, period, sync, runSync],
  );

  return (
    <LayoutContext.Provider value={state}>
      <div className={prefs?.sidebarPinned ? 'shell shell--pinned' : 'shell'} aria-busy={leaving || undefined}>
        <TopBar
          picker={picker}
          period={period}
          onPeriod={setPeriod}
          pending={pending}
          accounts={accounts ?? []}
          selected={selected}
          onSelect={selectAccount}
          onMenu={() => setDrawerOpen(true)}
          onDetails={() => setDetailsOpen(true)}
          onLogout={() => void onLogout()}
          chatSlot={chatSlotRef}
        />

        <nav className="sidebar" aria-label="Menú principal">
          <SideMenu />
          <button type="button" className="sidebar__pin" aria-pressed={prefs?.sidebarPinned ?? false} onClick={togglePinned}>
            <Icon name="pin" />
            <span className="menu__label">Fijar menú</span>
          </button>
        </nav>

        <div className="content">
          {authPaused && <AuthPausedBanner />}
          {!online && (
            <div className="offline-bar" role="status">
              <Icon name="wifiOff" />
              <span>{TXT.offlineBanner}</span>
            </div>
          )}
          <Outlet />
          <footer className="footer">{TXT.copyright(new Date().getFullYear(), APP_VERSION)}</footer>
        </div>
      </div>

      <Drawer open={drawerOpen} onClose={() => setDrawerOpen(false)} title="Menú">
        <nav aria-label="Menú principal">
          <SideMenu onNavigate={() => setDrawerOpen(false)} />
        </nav>
      </Drawer>
      <LogoutConfirm open={confirmLogout} count={pending} onConfirm={() => void onLogout(true)} onCancel={() => setConfirmLogout(false)} />
      <DetailsPanel open={detailsOpen} onClose={() => setDetailsOpen(false)} account={selected} plans={plans} />
      {/* Support chat: unmounted with the layout on logout, which closes it. */}
      <ChatWidget />
    </LayoutContext.Provider>
  );
}
