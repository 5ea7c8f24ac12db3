import { describe, expect, it } from 'vitest';
import { mergeMessages, messageTime, nextPollDelay, POLL_CLOSED_MS, POLL_MAX_MS, POLL_OPEN_MS } from '../../../src/app/chat/chat-model';
import { forgetOpenChatRequest, onOpenSupportChat, openSupportChat } from '../../../src/app/layout/open-chat';
import { CHAT_MESSAGE_MAX, CHAT_MSG, chatBodyError } from '../../../src/domain/chat';

const msg = (id: string, createdAt: string, body = id) => ({ id, author: 'user' as const, body, createdAt });

describe('mergeMessages', () => {
  it('keeps time order and each id once, the newer copy winning', () => {
    const a = [msg('b', '2026-11-23T10:00:01.000Z'), msg('a', '2026-11-23T10:00:00.000Z')];
    const b = [msg('c', '2026-11-23T10:00:02.000Z'), msg('b', '2026-11-23T10:00:01.000Z', 'otra')];
    expect(mergeMessages(a, b).map((m) => [m.id, m.body])).toEqual([
      ['a', 'a'],
      ['b', 'otra'],
      ['c', 'c'],
    ]);
  });
  it('orders ties by id', () => {
    const t = '2026-11-23T10:00:00.000Z';
    expect(mergeMessages([msg('z', t)], [msg('y', t)]).map((m) => m.id)).toEqual(['y', 'z']);
  });
});

describe('nextPollDelay', () => {
  it('polls fast while open, slowly for the badge, never hidden or offline', () => {
    expect(nextPollDelay({ open: true, visible: true, online: true, failures: 0 })).toBe(POLL_OPEN_MS);
    expect(nextPollDelay({ open: false, visible: true, online: true, failures: 0 })).toBe(POLL_CLOSED_MS);
    expect(nextPollDelay({ open: true, visible: false, online: true, failures: 0 })).toBeNull();
    expect(nextPollDelay({ open: true, visible: true, online: false, failures: 0 })).toBeNull();
  });
  it('backs off after failures up to a ceiling', () => {
    expect(nextPollDelay({ open: true, visible: true, online: true, failures: 2 })).toBe(POLL_OPEN_MS * 4);
    expect(nextPollDelay({ open: false, visible: true, online: true, failures: 9 })).toBe(POLL_MAX_MS);
  });
});

describe('messageTime', () => {
  it('shows the time today and the day otherwise, in Mexico City', () => {
    const now = new Date('2026-11-23T18:00:00Z');
    expect(messageTime('2026-11-23T16:05:00Z', now)).toMatch(/^10:05\s?a\.\s?m\.$/);
    expect(messageTime('2026-11-03T16:05:00Z', now)).toMatch(/^3 nov\.?, 10:05\s?a\.\s?m\.$/);
  });
});

describe('chatBodyError', () => {
  it('asks for a message and enforces the limit after trimming', () => {
    expect(chatBodyError('   ')).toBe(CHAT_MSG.empty);
    expect(chatBodyError(` ${'x'.repeat(CHAT_MESSAGE_MAX)} `)).toBeNull();
    expect(chatBodyError('x'.repeat(CHAT_MESSAGE_MAX + 1))).toBe(CHAT_MSG.tooLong);
    expect(CHAT_MSG.tooLong).toContain('2000');
  });
});

describe('openSupportChat', () => {
  it('delivers to the mounted widget, or keeps the request until it mounts', () => {
    const seen: (string | undefined)[] = [];
    openSupportChat('Quiero el plan empresa');
    const off = onOpenSupportChat((r) => seen.push(r.message));
    expect(seen).toEqual(['Quiero el plan empresa']);
    openSupportChat();
    expect(seen).toEqual(['Quiero el plan empresa', undefined]);
    off();
    openSupportChat('tarde');
    forgetOpenChatRequest(); // logout: the next user's widget must not open with it
    const again = onOpenSupportChat((r) => seen.push(r.message));
    expect(seen).toHaveLength(2);
    again();
  });
});
