// Support chat rules shared by the widget, the inbox and the server.
import * as v from 'valibot';
import { isUuidV7 } from './ids';

export const CHAT_MESSAGE_MAX = 2000;

export const CHAT_MSG = {
  empty: 'Escribe un mensaje.',
  tooLong: `El mensaje no puede pasar de ${CHAT_MESSAGE_MAX} caracteres.`,
  badId: 'El identificador del mensaje no es válido.',
  rateLimited: 'Estás enviando muchos mensajes. Espera un momento e inténtalo de nuevo.',
  closed: 'Esta conversación ya está cerrada.',
} as const;

/** When support answers: the widget's acknowledgement and the reply e-mail say it in these words. */
export const SUPPORT_HOURS = 'de lunes a viernes de 9:00 a 18:00 (hora del centro de México)';

/** Shown once after the first message a user sends that support has not answered yet. */
export const CHAT_ACK = `Recibimos tu mensaje. Te respondemos ${SUPPORT_HOURS}; la respuesta también te llegará a tu correo.`;

/** Counts characters as the user sees them (an emoji is one), not UTF-16 units. */
export function chatLength(s: string): number {
  return [...s].length;
}

/** The Spanish problem with a message body, or null when it can be sent. */
export function chatBodyError(raw: string): string | null {
  const body = raw.trim();
  if (!body) return CHAT_MSG.empty;
  if (chatLength(body) > CHAT_MESSAGE_MAX) return CHAT_MSG.tooLong;
  return null;
}

/** POST body: the client's UUIDv7 for the message (so a retry is not sent twice) and its text. */
export const ChatMessageBody = v.object({
  id: v.optional(v.pipe(v.string(CHAT_MSG.badId), v.check(isUuidV7, CHAT_MSG.badId))),
  body: v.pipe(v.optional(v.string(CHAT_MSG.empty), ''), v.transform((s) => s.trim())),
});

export type ChatAuthor = 'user' | 'staff';

export interface ChatMessage {
  id: string;
  author: ChatAuthor;
  body: string;
  createdAt: string;
}

export interface ChatConversation {
  id: string;
  status: 'open' | 'closed';
  unread: number;
}
