// Installing the app, in one place for the login's 'Instalar la app' and the iOS hint of the PWA prompt:
// the browser's own install prompt (beforeinstallprompt, Chromium browsers) kept from the moment it fires
// (often before the login screen is shown, so main.tsx starts listening at boot), and whether this is
// iPhone or iPad Safari, which has no prompt and is installed by hand. Nothing when already installed.
import { useSyncExternalStore } from 'react';

interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferred: InstallPromptEvent | null = null;
let listening = false;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Starts keeping the browser's install prompt; safe to call more than once. */
export function listenForInstallPrompt(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('beforeinstallprompt', (e) => {
    // Ours to show when the person asks, not the browser's mini-infobar.
    e.preventDefault();
    deferred = e as InstallPromptEvent;
    emit();
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    emit();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while the browser holds an install prompt for us. */
export function useCanPromptInstall(): boolean {
  return useSyncExternalStore(subscribe, () => deferred !== null, () => false);
}

/** Shows the browser's prompt (once per event); true when the person installed. */
export async function promptInstall(): Promise<boolean> {
  const event = deferred;
  if (!event) return false;
  deferred = null;
  emit();
  await event.prompt();
  const { outcome } = await event.userChoice;
  return outcome === 'accepted';
}

export interface Platform {
  userAgent: string;
  platform: string;
  maxTouchPoints: number;
  /** Safari's navigator.standalone or display-mode standalone: opened from the home screen. */
  standalone: boolean;
}

function currentPlatform(): Platform {
  const nav = navigator as Navigator & { standalone?: boolean };
  return {
    userAgent: nav.userAgent,
    platform: nav.platform,
    maxTouchPoints: nav.maxTouchPoints,
    standalone: nav.standalone === true || window.matchMedia?.('(display-mode: standalone)').matches === true,
  };
}

/** Safari on iPhone/iPad (iPadOS reports itself as a Mac with touch), not opened from the home screen. */
export function isIosSafariBrowser(p: Platform = currentPlatform()): boolean {
  const ios = /iPad|iPhone|iPod/.test(p.userAgent) || (p.platform === 'MacIntel' && p.maxTouchPoints > 1);
  const safari = /Safari/.test(p.userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(p.userAgent);
  return ios && safari && !p.standalone;
}
