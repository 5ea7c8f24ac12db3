// The support chat (spec §1, §2 Layout): a floating button in the signed-in layout with an unread
// badge, opening a panel (a full-screen sheet on phones, a corner panel on desktop) booted with the
// user's e-mail. Replies arrive by polling GET /api/v3/chat?after=…: every 4 s while the panel is
// open, every 30 s for the badge while closed, never while the tab is hidden or the phone offline.
// Polling instead of a held server-sent-events stream: a cheap phone keeps no connection (nor the
// radio) busy for a chat that is silent most of the time, it survives flaky mobile networks and
// proxies without reconnection logic, and the token stays in a header (EventSource cannot send one).
import { createPortal } from 'react-dom';
import { Fragment, useEffect, useRef, useState, useSyncExternalStore, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { CHAT_ACK, CHAT_MESSAGE_MAX, chatBodyError, chatLength } from '../../domain/chat';
import { newId } from '../../domain/ids';
import { ApiError } from '../../offline/http';
import { Button } from '../ui/button';
import { SvgIcon, Icon } from '../ui/icon';
import { useFocusTrap } from '../ui/overlay';
import { useOnline } from '../use-online';
import { acknowledgedMessageId, messageTime, nextPollDelay } from './chat-model';
import { loadOlderMessages, markChatRead, refreshChat, sendChatMessage, useChatState, type ChatState } from './chat-store';
import { onOpenSupportChat } from '../layout/open-chat';
import { useOpenChatFromLink } from './chat-link';
import './chat.css';

export const CHAT_ICON = 'M4 5h16v11H9l-5 4V5zM8 9h8M8 12h5';
export const CHAT_TXT = {
  open: 'Chat con soporte',
  title: 'Soporte',
  as: (email: string) => `Conversando como ${email}`,
  close: 'Cerrar chat',
  empty: '¿En qué te ayudamos? Escríbenos y te respondemos aquí mismo.',
  closed: 'Esta conversación se cerró. Si escribes de nuevo, empezamos una nueva.',
  loading: 'Cargando conversación…',
  older: 'Ver mensajes anteriores',
  label: 'Tu mensaje',
  send: 'Enviar',
  you: 'Tú',
  support: 'Soporte',
  offline: 'Sin conexión. Tu mensaje se queda aquí; envíalo cuando vuelvas a tener internet.',
  unread: (n: number) => (n === 1 ? '1 mensaje nuevo' : `${n} mensajes nuevos`),
  count: (n: number) => `${n} de ${CHAT_MESSAGE_MAX}`,
};

const isHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

/** Whether the tab is visible, as state: a hidden tab does not poll. */
function useVisible(): boolean {
  const [visible, setVisible] = useState(() => !isHidden());
  useEffect(() => {
    const onVis = () => setVisible(!isHidden());
    document.addEventListener('visibilitychange', onVis);
    return () => document.removeEventListener('visibilitychange', onVis);
  }, []);
  return visible;
}

/**
 * One look now, then on the cadence of nextPollDelay; restarted (the request in flight cancelled)
 * when open/visible/online change. Returns the last failure's message while nothing has loaded.
 */
function useChatPolling(open: boolean, visible: boolean, online: boolean): string | null {
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const tick = async () => {
      try {
        await refreshChat(ctrl.signal);
        failures = 0;
        if (!ctrl.signal.aborted) setLoadError(null);
      } catch (err) {
        if (ctrl.signal.aborted) return;
        if (err instanceof ApiError && err.status === 401) return; // signed out: the layout goes away
        failures++;
        setLoadError(err instanceof ApiError ? err.message : null);
      }
      if (ctrl.signal.aborted) return;
      const delay = nextPollDelay({ open, visible, online, failures });
      if (delay !== null) timer = setTimeout(() => void tick(), delay);
    };
    if (visible && online) void tick();
    return () => {
      ctrl.abort();
      clearTimeout(timer);
    };
  }, [open, visible, online]);
  return loadError;
}

export function ChatLog({ chat, loadError, listRef }: { chat: ChatState; loadError: string | null; listRef?: RefObject<HTMLOListElement | null> }) {
  // Only while the conversation is open: a closed one says so instead.
  const ackAfter = chat.conversation?.status === 'open' ? acknowledgedMessageId(chat.messages) : null;
  return (
    <ol className="chat-log" ref={listRef} aria-live="polite" aria-label="Mensajes">
      {chat.hasMore && (
        <li className="chat-log__more">
          <Button variant="ghost" onClick={() => void loadOlderMessages().catch(() => undefined)}>
            {CHAT_TXT.older}
          </Button>
        </li>
      )}
      {!chat.loaded && !loadError && <li className="chat-log__note">{CHAT_TXT.loading}</li>}
      {!chat.loaded && loadError && <li className="chat-log__note">{loadError}</li>}
      {chat.loaded && chat.messages.length === 0 && <li className="chat-log__note">{CHAT_TXT.empty}</li>}
      {chat.messages.map((m) => (
        <Fragment key={m.id}>
          <li className={`chat-msg chat-msg--${m.author}`}>
            <span className="visually-hidden">{m.author === 'user' ? CHAT_TXT.you : CHAT_TXT.support}: </span>
            <p className="chat-msg__body">{m.body}</p>
            <time className="chat-msg__time" dateTime={m.createdAt}>
              {messageTime(m.createdAt)}
            </time>
          </li>
          {m.id === ackAfter && <li className="chat-log__note" data-chat-ack>{CHAT_ACK}</li>}
        </Fragment>
      ))}
      {chat.conversation?.status === 'closed' && <li className="chat-log__note">{CHAT_TXT.closed}</li>}
    </ol>
  );
}

function ChatCompose({ text, error, sending, textareaRef, onText, onSubmit }: {
  text: string;
  error: string | null;
  sending: boolean;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  onText: (text: string) => void;
  onSubmit: (e?: FormEvent) => void;
}) {
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends on a keyboard; Shift+Enter is a new line.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      onSubmit();
    }
  }
  const length = chatLength(text.trim());
  return (
    <form className="chat-compose" onSubmit={onSubmit} noValidate>
      <label className="visually-hidden" htmlFor="chat-input">
        {CHAT_TXT.label}
      </label>
      <textarea
        id="chat-input"
        ref={textareaRef}
        data-autofocus
        className="field__input chat-compose__input"
        rows={2}
        value={text}
        onChange={(e) => onText(e.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={error ? true : undefined}
        aria-describedby="chat-help"
      />
      <Button variant="primary" type="submit" loading={sending}>
        {CHAT_TXT.send}
      </Button>
      <p id="chat-help" className={error ? 'chat-compose__help chat-compose__help--error' : 'chat-compose__help'} aria-live="assertive">
        {error ?? (length > CHAT_MESSAGE_MAX - 200 ? CHAT_TXT.count(length) : '')}
      </p>
    </form>
  );
}

// The top bar's place for the button, so it comes where it shows in the keyboard order too. Kept here,
// not in the layout's state: the element arrives with the layout's first commit, and only this widget
// has to render again for it (as layout state it rendered the whole layout a second time).
let slotElement: HTMLElement | null = null;
const slotListeners = new Set<() => void>();

/** Ref callback of the top bar's place for the chat button (signed-in-layout.tsx). */
export function chatSlotRef(el: HTMLElement | null): void {
  slotElement = el;
  for (const listener of slotListeners) listener();
}

function subscribeSlot(listener: () => void): () => void {
  slotListeners.add(listener);
  return () => {
    slotListeners.delete(listener);
  };
}

const currentSlot = () => slotElement;

export function ChatWidget() {
  const slot = useSyncExternalStore(subscribeSlot, currentSlot, () => null);
  const chat = useChatState();
  const online = useOnline();
  const visible = useVisible();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  /** The id of the text being sent: a retry after a lost answer reuses it, so it is stored once. */
  const pendingId = useRef<{ id: string; body: string } | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const loadError = useChatPolling(open, visible, online);

  useFocusTrap(open, panelRef, () => setOpen(false));
  useOpenChatFromLink();

  useEffect(
    () =>
      onOpenSupportChat(({ message }) => {
        setOpen(true);
        if (message) {
          setText(message);
          setError(null);
        }
      }),
    [],
  );

  const unread = chat.conversation?.unread ?? 0;
  useEffect(() => {
    if (open && visible && unread > 0) void markChatRead().catch(() => undefined);
  }, [open, visible, unread]);

  // Keep the newest message in view as messages arrive.
  const lastId = chat.messages.at(-1)?.id;
  useEffect(() => {
    const el = listRef.current;
    if (open && el) el.scrollTop = el.scrollHeight;
  }, [open, lastId]);

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    const problem = chatBodyError(text);
    if (problem) {
      setError(problem);
      textareaRef.current?.focus();
      return;
    }
    if (!navigator.onLine) {
      setError(CHAT_TXT.offline);
      return;
    }
    const body = text.trim();
    if (pendingId.current?.body !== body) pendingId.current = { id: newId(), body };
    setSending(true);
    setError(null);
    try {
      await sendChatMessage(pendingId.current.id, body);
      pendingId.current = null;
      setText('');
    } catch (err) {
      const e2 = err instanceof ApiError ? err : null;
      setError(e2?.offline ? CHAT_TXT.offline : (e2?.message ?? CHAT_TXT.offline));
    } finally {
      setSending(false);
      textareaRef.current?.focus();
    }
  }

  // Support staff answer from the inbox; a button to chat with themselves would only confuse.
  if (chat.staff) return null;

  return (
    <>
      {slot &&
        createPortal(
        <button
          type="button"
          className="chat-fab"
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => setOpen(true)}
          hidden={open}
        >
          <SvgIcon d={CHAT_ICON} />
          <span className="visually-hidden">{CHAT_TXT.open}</span>
          {unread > 0 && (
            <span className="count-badge chat-fab__badge" aria-label={CHAT_TXT.unread(unread)}>
              {unread > 9 ? '9+' : unread}
            </span>
          )}
        </button>,
          slot,
        )}
      {open && (
        <div className="chat-panel" role="dialog" aria-modal="true" aria-labelledby="chat-title" ref={panelRef}>
          <header className="chat-panel__head">
            <div>
              <h2 id="chat-title" className="chat-panel__title">
                {CHAT_TXT.title}
              </h2>
              {chat.email && <p className="chat-panel__as">{CHAT_TXT.as(chat.email)}</p>}
            </div>
            <button type="button" className="btn btn--ghost btn--icon" aria-label={CHAT_TXT.close} onClick={() => setOpen(false)}>
              <Icon name="close" />
            </button>
          </header>
          {!online && (
            <p className="chat-panel__offline" role="status">
              <Icon name="wifiOff" /> Sin conexión
            </p>
          )}
          <ChatLog chat={chat} loadError={loadError} listRef={listRef} />
          <ChatCompose
            text={text}
            error={error}
            sending={sending}
            textareaRef={textareaRef}
            onText={(value) => {
              setText(value);
              if (error) setError(null);
            }}
            onSubmit={(e) => void submit(e)}
          />
        </div>
      )}
    </>
  );
}
