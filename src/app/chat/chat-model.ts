// Pure helpers of the chat views: merging pages of messages and how often to look for replies.
import type { ChatMessage } from '../../domain/chat';

/** Both lists in time order, each message once (a poll may repeat what a send already added). */
export function mergeMessages(a: readonly ChatMessage[], b: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map<string, ChatMessage>();
  for (const m of a) byId.set(m.id, m);
  for (const m of b) byId.set(m.id, m);
  return [...byId.values()].sort((x, y) => (x.createdAt === y.createdAt ? (x.id < y.id ? -1 : x.id > y.id ? 1 : 0) : x.createdAt < y.createdAt ? -1 : 1));
}

/**
 * The message the acknowledgement follows: the first of the user's messages after support's last
 * reply (or since the conversation began), so a burst of messages gets one, and a reply takes it away.
 * Null when the last word is support's or nothing was sent. Derived, never stored: the staff inbox
 * counts only what the user wrote.
 */
export function acknowledgedMessageId(messages: readonly ChatMessage[]): string | null {
  let first: string | null = null;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.author !== 'user') break;
    first = m.id;
  }
  return first;
}

/** Looking for replies while the panel is open. */
export const POLL_OPEN_MS = 4_000;
/** Only for the unread badge while the panel is closed. */
export const POLL_CLOSED_MS = 30_000;
/** After failures, waits double up to this. */
export const POLL_MAX_MS = 120_000;

/**
 * The wait before the next look for replies, or null for none: a hidden tab or an offline phone
 * does not poll (it looks again as soon as it is visible / online).
 */
export function nextPollDelay(s: { open: boolean; visible: boolean; online: boolean; failures: number }): number | null {
  if (!s.visible || !s.online) return null;
  const base = s.open ? POLL_OPEN_MS : POLL_CLOSED_MS;
  return Math.min(POLL_MAX_MS, base * 2 ** Math.min(s.failures, 5));
}

// Made on first use, not at module load: building a formatter loads ICU data, and this module is in
// the signed-in layout's chunk (the chat widget) that every signed-in screen evaluates before painting.
let TIME: Intl.DateTimeFormat | undefined;
let DAY: Intl.DateTimeFormat | undefined;

/** '10:42 a.m.' today, '3 nov, 10:42 a.m.' another day (Mexico City time). */
export function messageTime(iso: string, now: Date = new Date()): string {
  TIME ??= new Intl.DateTimeFormat('es-MX', { hour: 'numeric', minute: '2-digit', timeZone: 'America/Mexico_City' });
  DAY ??= new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'short', timeZone: 'America/Mexico_City' });
  const d = new Date(iso);
  const sameDay = DAY.format(d) === DAY.format(now);
  return sameDay ? TIME.format(d) : `${DAY.format(d)}, ${TIME.format(d)}`;
}
