// The support chat's HTTP calls (server: src/server/chat/routes.ts).
import type { ChatMessage } from '../../domain/chat';
import { api } from '../api/client';

export interface ConversationInfo {
  id: string;
  status: 'open' | 'closed';
  unread: number;
}

export interface ChatPage {
  email: string;
  staff: boolean;
  conversation: ConversationInfo | null;
  messages: ChatMessage[];
  hasMore: boolean;
}

export interface InboxItem {
  id: string;
  userId: number;
  email: string;
  status: 'open' | 'closed';
  unread: number;
  lastMessageAt: string;
  lastMessage: string | null;
}

export interface StaffConversation {
  conversation: ConversationInfo & { email: string; lastMessageAt: string };
  messages: ChatMessage[];
  hasMore: boolean;
}

const cursor = (c: { after?: string; before?: string }): Record<string, string> => ({ ...c });

export const chatApi = {
  page: (c: { after?: string; before?: string } = {}, signal?: AbortSignal) => api.get<ChatPage>('/api/v3/chat', cursor(c), signal),
  send: (id: string, body: string) => api.post<{ conversation: ConversationInfo; message: ChatMessage }>('/api/v3/chat/messages', { id, body }),
  read: () => api.post<{ unread: number }>('/api/v3/chat/read'),
};

/** The query keys of the staff inbox: a reply, a read or a close invalidates the list. */
export const supportKeys = {
  inbox: ['support-inbox'] as const,
  list: (status: 'open' | 'closed' | 'all') => ['support-inbox', status] as const,
  conversation: (id: string) => ['support-conversation', id] as const,
};

export const supportApi = {
  inbox: (status: 'open' | 'closed' | 'all', signal?: AbortSignal) =>
    api.get<{ conversations: InboxItem[]; hasMore: boolean }>('/api/v3/support/conversations', { status }, signal),
  conversation: (id: string, c: { after?: string; before?: string } = {}, signal?: AbortSignal) =>
    api.get<StaffConversation>(`/api/v3/support/conversations/${encodeURIComponent(id)}`, cursor(c), signal),
  reply: (id: string, messageId: string, body: string) =>
    api.post<{ message: ChatMessage }>(`/api/v3/support/conversations/${encodeURIComponent(id)}/messages`, { id: messageId, body }),
  read: (id: string) => api.post<{ unread: number }>(`/api/v3/support/conversations/${encodeURIComponent(id)}/read`),
  close: (id: string) => api.post<{ id: string; status: string }>(`/api/v3/support/conversations/${encodeURIComponent(id)}/close`),
};
