// The known-device tokens the server hands out at sign-in (see the login limits): kept per person in
// their own idb-keyval store, which logout does not clear — a lockout by strangers spares a device
// that its owner used before, also after signing out. Entries are keyed by a SHA-256 of the login
// (username and e-mail), so the store does not list who used this device. The install's random id (the
// "device" block of sign-in and sign-up) and the PWA's device flags live here too, for the same reason:
// logout empties Web Storage (spec §1), and these belong to the device, not to whoever used it.
import { createStore, del, get, set, type UseStore } from 'idb-keyval';

const DB_NAME = 'cuentas-claras-device';
const MAX_PEOPLE = 5;

let store: UseStore | null = null;
function deviceStore(): UseStore {
  store ??= createStore(DB_NAME, 'kv');
  return store;
}

const INSTALL_ID_KEY = 'install-id';
/** Where earlier versions kept the install id; moved here on first use so logout leaves Web Storage empty. */
const LEGACY_STORAGE_KEY = 'cc-device-id';

/** The slice of Web Storage this module uses: also compiled for the service worker, which has none. */
interface KeyValueStorage {
  getItem(key: string): string | null;
  removeItem(key: string): void;
  clear(): void;
}
export const webStorage = (area: 'localStorage' | 'sessionStorage') => (globalThis as { [k in typeof area]?: KeyValueStorage })[area];

function takeLegacyId(): string | null {
  try {
    const storage = webStorage('localStorage');
    const id = storage?.getItem(LEGACY_STORAGE_KEY) ?? null;
    storage?.removeItem(LEGACY_STORAGE_KEY);
    return id && /^[\w-]{8,64}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * Small flags about this device (the PWA's questions already asked: persistent storage, the iOS install
 * hint), kept here rather than in Web Storage, which logout empties; null when unset or storage is blocked.
 */
export async function deviceFlag(key: string): Promise<string | null> {
  try {
    const value = await get<unknown>(`flag:${key}`, deviceStore());
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

export async function setDeviceFlag(key: string, value: string): Promise<void> {
  await set(`flag:${key}`, value, deviceStore()).catch(() => undefined);
}

/** A random id per install, never a fingerprint; kept across logout. Storage blocked: a fresh one each time. */
export async function installId(): Promise<string> {
  try {
    const kept = await get<unknown>(INSTALL_ID_KEY, deviceStore());
    if (typeof kept === 'string' && kept) return kept;
    const id = takeLegacyId() ?? crypto.randomUUID();
    await set(INSTALL_ID_KEY, id, deviceStore());
    return id;
  } catch {
    return crypto.randomUUID();
  }
}

type Entries = Record<string, { token: string; at: number }>;

async function keyOf(login: string): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null; // not a secure context: sign in without the token
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(login.trim().toLowerCase()));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function entries(): Promise<Entries> {
  try {
    return ((await get('tokens', deviceStore())) as Entries | undefined) ?? {};
  } catch {
    return {}; // storage blocked (private mode)
  }
}

/** The token saved for whoever signs in as `login` (username or e-mail), if any. */
export async function deviceTokenFor(login: string): Promise<string | undefined> {
  const key = await keyOf(login);
  return key ? (await entries())[key]?.token : undefined;
}

/** Keeps the token a sign-in returned, under the person's username and e-mail; the oldest people drop out. */
export async function saveDeviceToken(who: { username: string; email: string }, token: string, now = Date.now()): Promise<void> {
  const keys = (await Promise.all([keyOf(who.username), keyOf(who.email)])).filter((k): k is string => k !== null);
  if (!keys.length) return;
  const all = await entries();
  for (const k of keys) all[k] = { token, at: now };
  const kept = Object.entries(all)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, MAX_PEOPLE * 2);
  await set('tokens', Object.fromEntries(kept), deviceStore()).catch(() => undefined);
}

export async function forgetDeviceTokens(): Promise<void> {
  await del('tokens', deviceStore()).catch(() => undefined);
}
