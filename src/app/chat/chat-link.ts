// The reply e-mail links to `#/home?soporte=abrir`: the chat opens, and the marker leaves the address
// so that a reload or a shared link does not open it again.
import { useRouter, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { openSupportChat } from '../layout/open-chat';

/** The query parameter the server's reply e-mail sets (server/chat/reply-mail.ts). */
export const OPEN_CHAT_PARAM = 'soporte';
export const OPEN_CHAT_VALUE = 'abrir';

export function useOpenChatFromLink(): void {
  const router = useRouter();
  const location = useRouterState({ select: (s) => s.location });
  const search = location.search as Record<string, unknown>;
  const asked = search[OPEN_CHAT_PARAM] === OPEN_CHAT_VALUE;
  useEffect(() => {
    if (!asked) return;
    openSupportChat();
    const rest = Object.fromEntries(Object.entries(search).filter(([k]) => k !== OPEN_CHAT_PARAM));
    void router.navigate({ to: location.pathname, search: rest, replace: true });
  }, [asked, router, location.pathname, search]);
}
