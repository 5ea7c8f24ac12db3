// The signed-in user's support conversation in memory only (never in Dexie): logout or a change of
// user drops it, so the next person on the device sees nothing of it.
import { useSyncExternalStore } from 'react';
import type { ChatMessage } from '../../domain/chat';
import { getSession, subscribeSession } from '../../offline/session';
import { chatApi, type ConversationInfo } from './chat-api';
import { mergeMessages } from './chat-model';
import { forgetOpenChatRequest } from '../layout/open-chat';

export interface ChatState {
  loaded: boolean;
  email: string;
  staff: boolean;
  conversation: ConversationInfo | null;
  messages: ChatMessage[];
  hasMore: boolean;
}

const EMPTY: ChatState = { loaded: false, email: '', staff: false, conversation: null, messages: [], hasMore: false };

let state: ChatState = EMPTY;
let owner: number | null = getSession()?.user_id ?? null;
/** Bumped on reset so answers to requests made for the previous user are dropped. */
let generation = 0;
const listeners = new Set<() => void>();

function set(next: ChatState): void {
  state = next;
  for (const l of listeners) l();
}

export function resetChat(): void {
  generation++;
  set(EMPTY);
}

subscribeSession((s) => {
  const id = s?.user_id ?? null;
  if (id !== owner) {
    owner = id;
    resetChat();
    forgetOpenChatRequest();
  }
});

export function getChatState(): ChatState {
  return state;
}

export function useChatState(): ChatState {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => state,
    () => state,
  );
}

/** Looks for new messages (the newest page the first time). Throws ApiError when it cannot; `signal` cancels it. */
export async function refreshChat(signal?: AbortSignal): Promise<void> {
  const gen = generation;
  const last = state.messages.at(-1);
  const page = await chatApi.page(state.loaded && last ? { after: last.id } : {}, signal);
  if (gen !== generation) return;
  const sameConversation = page.conversation?.id === state.conversation?.id;
  set({
    loaded: true,
    email: page.email,
    staff: page.staff,
    conversation: page.conversation,
    messages: sameConversation ? mergeMessages(state.messages, page.messages) : page.messages,
    hasMore: sameConversation && state.loaded ? state.hasMore : page.hasMore,
  });
}

export async function loadOlderMessages(): Promise<void> {
  const gen = generation;
  const first = state.messages[0];
  if (!first) return;
  const page = await chatApi.page({ before: first.id });
  if (gen !== generation || page.conversation?.id !== state.conversation?.id) return;
  set({ ...state, messages: mergeMessages(page.messages, state.messages), hasMore: page.hasMore });
}

/** Sends with the caller's id (kept across retries so a resend is stored once). */
export async function sendChatMessage(id: string, body: string): Promise<void> {
  const gen = generation;
  const out = await chatApi.send(id, body);
  if (gen !== generation) return;
  const same = out.conversation.id === state.conversation?.id;
  set({
    ...state,
    conversation: out.conversation,
    messages: same ? mergeMessages(state.messages, [out.message]) : [out.message],
    hasMore: same ? state.hasMore : false,
  });
}

export async function markChatRead(): Promise<void> {
  if (!state.conversation || state.conversation.unread === 0) return;
  set({ ...state, conversation: { ...state.conversation, unread: 0 } });
  await chatApi.read();
}
