// The staff support inbox (route `support`, DESIGN §2): conversations with the newest activity first
// and their unread counts; choosing one shows it with a reply box. Non-staff accounts get not-found.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { chatBodyError, type ChatMessage } from '../../domain/chat';
import { newId } from '../../domain/ids';
import { ApiError } from '../../offline/http';
import { supportApi, type InboxItem, type StaffConversation } from './chat-api';
import { useChatState } from './chat-store';
import { mergeMessages, messageTime } from './chat-model';
import { NotFound } from '../not-found';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { useOnline } from '../use-online';
import './chat.css';
import './support.css';

/** Staff look for new messages this often while the inbox is visible. */
const INBOX_POLL_MS = 10_000;
type Filter = 'open' | 'closed' | 'all';
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'open', label: 'Abiertas' },
  { value: 'closed', label: 'Cerradas' },
  { value: 'all', label: 'Todas' },
];

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : 'Algo salió mal. Intenta de nuevo.');

export function SupportPage() {
  const online = useOnline();
  const [filter, setFilter] = useState<Filter>('open');
  const [items, setItems] = useState<InboxItem[] | null>(null);
  const [forbidden, setForbidden] = useState(false);
  const [listError, setListError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  const loadInbox = useCallback(async () => {
    try {
      const r = await supportApi.inbox(filter);
      setItems(r.conversations);
      setListError(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) setForbidden(true);
      else setListError(messageOf(err));
    }
  }, [filter]);

  useEffect(() => {
    setItems(null);
    void loadInbox();
    const t = setInterval(() => {
      if (document.visibilityState === 'visible' && navigator.onLine) void loadInbox();
    }, INBOX_POLL_MS);
    return () => clearInterval(t);
  }, [loadInbox]);

  // The widget's first look already says whether this account is staff; the server decides anyway (403).
  const chat = useChatState();
  if (forbidden || (chat.loaded && !chat.staff)) return <NotFound />;

  return (
    <main id="main" className={selected ? 'page support support--detail' : 'page support'}>
      <div className="page__title">
        <h1>Soporte</h1>
      </div>
      {!online && (
        <p className="support__note" role="status">
          Sin conexión: las conversaciones se actualizan al volver a tener internet.
        </p>
      )}
      <div className="support__panes">
        <section className="support__list" aria-labelledby="support-list-title">
          <h2 id="support-list-title" className="visually-hidden">
            Conversaciones
          </h2>
          <div className="support__filters" role="group" aria-label="Mostrar">
            {FILTERS.map((f) => (
              <button key={f.value} type="button" className="btn btn--ghost" aria-pressed={filter === f.value} onClick={() => setFilter(f.value)}>
                {f.label}
              </button>
            ))}
          </div>
          {listError && (
            <div className="support__note" role="alert">
              {listError} <Button onClick={() => void loadInbox()}>Reintentar</Button>
            </div>
          )}
          {items === null && !listError && <p className="muted">Cargando conversaciones…</p>}
          {items?.length === 0 && <p className="muted">No hay conversaciones {filter === 'closed' ? 'cerradas' : filter === 'open' ? 'abiertas' : ''}.</p>}
          <ul className="support__items">
            {items?.map((c) => (
              <li key={c.id}>
                <button type="button" className="support__item" aria-current={selected === c.id || undefined} onClick={() => setSelected(c.id)}>
                  <span className="support__email">{c.email}</span>
                  {c.unread > 0 && (
                    <span className="count-badge" aria-label={c.unread === 1 ? '1 sin leer' : `${c.unread} sin leer`}>
                      {c.unread}
                    </span>
                  )}
                  <span className="support__preview">{c.lastMessage ?? ''}</span>
                  <span className="support__when">
                    {c.status === 'closed' ? 'Cerrada · ' : ''}
                    {messageTime(c.lastMessageAt)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
        <section className="support__detail" aria-label="Conversación">
          {selected ? (
            <ConversationView key={selected} id={selected} onBack={() => setSelected(null)} onChanged={() => void loadInbox()} />
          ) : (
            <p className="muted support__pick">Elige una conversación para leerla y responder.</p>
          )}
        </section>
      </div>
    </main>
  );
}

function ConversationView({ id, onBack, onChanged }: { id: string; onBack: () => void; onChanged: () => void }) {
  const [data, setData] = useState<StaffConversation | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const pending = useRef<{ id: string; body: string } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const lastRef = useRef<string | undefined>(undefined);
  lastRef.current = messages.at(-1)?.id;

  const refresh = useCallback(async () => {
    try {
      const r = await supportApi.conversation(id, lastRef.current ? { after: lastRef.current } : {});
      setData(r);
      setMessages((m) => mergeMessages(m, r.messages));
      setLoadError(null);
      if (r.conversation.unread > 0) {
        await supportApi.read(id);
        onChanged();
      }
    } catch (err) {
      setLoadError(messageOf(err));
    }
  }, [id, onChanged]);

  useEffect(() => {
    void refresh();
    const t = setInterval(() => {
      if (document.visibilityState === 'visible' && navigator.onLine) void refresh();
    }, 4_000);
    return () => clearInterval(t);
  }, [refresh]);

  const lastId = messages.at(-1)?.id;
  useEffect(() => {
    if (listRef.current) listRef.current.scrollTop = listRef.current.scrollHeight;
  }, [lastId]);

  async function reply(e: FormEvent) {
    e.preventDefault();
    const problem = chatBodyError(text);
    if (problem) return setError(problem);
    if (!navigator.onLine) return setError('Sin conexión. Tu respuesta se queda aquí; envíala cuando vuelvas a tener internet.');
    const body = text.trim();
    if (pending.current?.body !== body) pending.current = { id: newId(), body };
    setSending(true);
    setError(null);
    try {
      const r = await supportApi.reply(id, pending.current.id, body);
      pending.current = null;
      setMessages((m) => mergeMessages(m, [r.message]));
      setText('');
      onChanged();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSending(false);
    }
  }

  async function close() {
    try {
      await supportApi.close(id);
      await refresh();
      onChanged();
    } catch (err) {
      setError(messageOf(err));
    }
  }

  const open = data?.conversation.status === 'open';
  return (
    <div className="support__conversation">
      <header className="support__head">
        <button type="button" className="btn btn--ghost btn--icon support__back" aria-label="Volver a la lista" onClick={onBack}>
          <Icon name="chevronLeft" />
        </button>
        <h2 className="support__title">{data?.conversation.email ?? 'Conversación'}</h2>
        {open && <Button onClick={() => void close()}>Cerrar conversación</Button>}
      </header>
      {loadError && (
        <p className="support__note" role="alert">
          {loadError}
        </p>
      )}
      <ol className="chat-log support__log" ref={listRef} aria-live="polite" aria-label="Mensajes">
        {messages.map((m) => (
          <li key={m.id} className={`chat-msg chat-msg--${m.author === 'staff' ? 'user' : 'staff'}`}>
            <span className="visually-hidden">{m.author === 'staff' ? 'Soporte' : 'Usuario'}: </span>
            <p className="chat-msg__body">{m.body}</p>
            <time className="chat-msg__time" dateTime={m.createdAt}>
              {messageTime(m.createdAt)}
            </time>
          </li>
        ))}
        {data && !open && <li className="chat-log__note">Conversación cerrada.</li>}
      </ol>
      {open && (
        <form className="chat-compose" onSubmit={(e) => void reply(e)} noValidate>
          <label className="visually-hidden" htmlFor="support-reply">
            Respuesta
          </label>
          <textarea
            id="support-reply"
            className="field__input chat-compose__input"
            rows={2}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby="support-reply-help"
          />
          <Button variant="primary" type="submit" loading={sending}>
            Responder
          </Button>
          <p id="support-reply-help" className="chat-compose__help chat-compose__help--error" aria-live="assertive">
            {error ?? ''}
          </p>
        </form>
      )}
    </div>
  );
}
