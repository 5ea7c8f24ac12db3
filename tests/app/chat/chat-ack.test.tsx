// After the user writes, the chat acknowledges once per unanswered burst: office hours and that the reply
// also arrives by e-mail. It is derived from the conversation (never stored), so a reply takes it away.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { acknowledgedMessageId } from '../../../src/app/chat/chat-model';
import type { ChatState } from '../../../src/app/chat/chat-store';
import { ChatLog } from '../../../src/app/chat/chat-widget';
import { CHAT_ACK, SUPPORT_HOURS, type ChatAuthor, type ChatMessage } from '../../../src/domain/chat';

let clock = 0;
const msg = (id: string, author: ChatAuthor): ChatMessage => ({ id, author, body: `texto ${id}`, createdAt: new Date(Date.UTC(2026, 10, 23, 16, clock++)).toISOString() });

const state = (messages: ChatMessage[], status: 'open' | 'closed' = 'open'): ChatState => ({
  loaded: true,
  email: 'ana@example.com',
  staff: false,
  conversation: { id: 'c', status, unread: 0 },
  messages,
  hasMore: false,
});

const render = (s: ChatState) => renderToStaticMarkup(<ChatLog chat={s} loadError={null} />);
const count = (html: string, text: string) => html.split(text).length - 1;

describe('acknowledgedMessageId', () => {
  it("is the first of the user's messages since support's last reply", () => {
    expect(acknowledgedMessageId([])).toBeNull();
    expect(acknowledgedMessageId([msg('a', 'user')])).toBe('a');
    expect(acknowledgedMessageId([msg('a', 'user'), msg('b', 'user'), msg('c', 'user')])).toBe('a');
    expect(acknowledgedMessageId([msg('a', 'user'), msg('b', 'staff')])).toBeNull();
    expect(acknowledgedMessageId([msg('a', 'user'), msg('b', 'staff'), msg('c', 'user'), msg('d', 'user')])).toBe('c');
  });
});

describe('the chat acknowledgement', () => {
  it('says the office hours and that the reply also arrives by e-mail', () => {
    expect(CHAT_ACK).toContain(SUPPORT_HOURS);
    expect(CHAT_ACK).toContain('de lunes a viernes de 9:00 a 18:00');
    expect(CHAT_ACK).toContain('también te llegará a tu correo');
  });

  it('follows the first message of a burst, once, however many the user sends', () => {
    const html = render(state([msg('a', 'user'), msg('b', 'user'), msg('c', 'user')]));
    expect(count(html, CHAT_ACK)).toBe(1);
    expect(html.indexOf(CHAT_ACK)).toBeGreaterThan(html.indexOf('texto a'));
    expect(html.indexOf(CHAT_ACK)).toBeLessThan(html.indexOf('texto b'));
  });

  it("goes away with support's reply and comes back for the next burst", () => {
    expect(render(state([msg('a', 'user'), msg('b', 'staff')]))).not.toContain(CHAT_ACK);
    const html = render(state([msg('a', 'user'), msg('b', 'staff'), msg('c', 'user'), msg('d', 'user')]));
    expect(count(html, CHAT_ACK)).toBe(1);
    expect(html.indexOf(CHAT_ACK)).toBeGreaterThan(html.indexOf('texto c'));
    expect(html.indexOf(CHAT_ACK)).toBeLessThan(html.indexOf('texto d'));
  });

  it('is not shown before the first message nor on a closed conversation', () => {
    expect(render(state([]))).not.toContain(CHAT_ACK);
    expect(render(state([msg('a', 'user')], 'closed'))).not.toContain(CHAT_ACK);
  });
});
