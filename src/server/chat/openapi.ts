// The OpenAPI entries of src/server/chat's routes (to be collected by src/server/endpoints.ts).
import * as v from 'valibot';
import { ChatMessageBody } from '../../domain/chat';
import type { Endpoint } from '../openapi/document';

const Message = v.object({ id: v.string(), author: v.picklist(['user', 'staff']), body: v.string(), createdAt: v.string() });
const Conversation = v.object({ id: v.string(), status: v.picklist(['open', 'closed']), unread: v.number() });
const Page = { messages: v.array(Message), hasMore: v.boolean() };
const cursor = { after: 'Id de mensaje: sólo los más nuevos (para consultar respuestas nuevas)', before: 'Id de mensaje: la página anterior a él' };

export const CHAT_ENDPOINTS: Endpoint[] = [
  {
    method: 'get', path: '/api/v3/chat', tag: 'Soporte', auth: true, params: cursor,
    summary: 'Mi conversación de soporte más reciente (o null), mi correo y si soy personal de soporte (`staff`), con sus mensajes en orden, 50 por página; el widget la consulta con `after` para recibir respuestas',
    response: v.object({ email: v.string(), staff: v.boolean(), conversation: v.nullable(Conversation), ...Page }),
  },
  {
    method: 'post', path: '/api/v3/chat/messages', tag: 'Soporte', auth: true, body: ChatMessageBody, status: 201, errors: [422, 429],
    summary: 'Enviar un mensaje a soporte (1 a 2000 caracteres; `id` UUIDv7 opcional hace idempotente el envío); abre una conversación si no hay una abierta. 30 por minuto',
    response: v.object({ conversation: Conversation, message: Message }),
  },
  { method: 'post', path: '/api/v3/chat/read', tag: 'Soporte', auth: true, summary: 'Marcar como leídas las respuestas de soporte', response: v.object({ unread: v.number() }) },
  {
    method: 'get', path: '/api/v3/support/conversations', tag: 'Soporte (personal)', auth: true, errors: [403],
    params: { status: '`open` (por omisión), `closed` o `all`', page: 'Página (50 por página) desde 0' },
    summary: 'Bandeja de soporte: conversaciones con actividad más reciente primero, correo del usuario y mensajes sin leer',
    response: v.object({
      conversations: v.array(v.object({ id: v.string(), userId: v.number(), email: v.string(), status: v.string(), unread: v.number(), lastMessageAt: v.string(), lastMessage: v.nullable(v.string()) })),
      hasMore: v.boolean(),
    }),
  },
  {
    method: 'get', path: '/api/v3/support/conversations/{id}', tag: 'Soporte (personal)', auth: true, errors: [403, 404], params: { id: '*Id de la conversación', ...cursor },
    summary: 'Una conversación con sus mensajes', response: v.object({ conversation: v.object({ id: v.string(), status: v.string(), unread: v.number(), email: v.string(), lastMessageAt: v.string() }), ...Page }),
  },
  {
    method: 'post', path: '/api/v3/support/conversations/{id}/messages', tag: 'Soporte (personal)', auth: true, body: ChatMessageBody, status: 201, errors: [403, 404, 409, 422],
    params: { id: '*Id de la conversación' }, summary: 'Responder al usuario (la conversación debe estar abierta)', response: v.object({ message: Message }),
  },
  { method: 'post', path: '/api/v3/support/conversations/{id}/read', tag: 'Soporte (personal)', auth: true, errors: [403, 404], params: { id: '*Id de la conversación' }, summary: 'Marcar como leídos los mensajes del usuario', response: v.object({ unread: v.number() }) },
  { method: 'post', path: '/api/v3/support/conversations/{id}/close', tag: 'Soporte (personal)', auth: true, errors: [403, 404], params: { id: '*Id de la conversación' }, summary: 'Cerrar la conversación', response: v.object({ id: v.string(), status: v.string() }) },
];
