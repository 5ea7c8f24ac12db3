// The staff support inbox (route `support`, DESIGN §2): conversations with the newest activity first
// and their unread counts; choosing one shows it with a reply box. Non-staff accounts get not-found.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { chatBodyError } from '../../domain/chat';
import { newId } from '../../domain/ids';
import { ApiError } from '../../offline/http';
import { invalidate, problemOf, queryClient, setQueryData, useApiQuery } from '../api/query';
import { supportApi, supportKeys, type StaffConversation } from './chat-api';
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
/** …and in the conversation open. */
const CONVERSATION_POLL_MS = 4_000;
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
  const [selected, setSelected] = useState<string | null>(null);
  const inbox = useApiQuery(supportKeys.list(filter), ({ signal }) => supportApi.inbox(filter, signal), { pollMs: online ? INBOX_POLL_MS : false });
  const items = inbox.data?.conversations ?? null;
  const forbidden = inbox.error instanceof ApiError && inbox.error.status === 403;
  const problem = forbidden ? null : problemOf(inbox);
  const listError = problem ? messageOf(problem) : null;
  const loadInbox = () => void inbox.refetch();

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
              {listError} <Button onClick={loadInbox}>Reintentar</Button>
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
            <ConversationView key={selected} id={selected} onBack={() => setSelected(null)} />
          ) : (
            <p className="muted support__pick">Elige una conversación para leerla y responder.</p>
          )}
        </section>
      </div>
    </main>
  );
}

/** The inbox shows unread counts and the newest message: whatever changes a conversation changes it. */
const inboxChanged = () => void invalidate(supportKeys.inbox);

/** New messages of a conversation (after the last one held), merged into what the cache holds. */
async function readConversation(id: string, signal: AbortSignal): Promise<StaffConversation> {
  const held = queryClient.getQueryData<StaffConversation>(supportKeys.conversation(id));
  const last = held?.messages.at(-1)?.id;
  const r = await supportApi.conversation(id, last ? { after: last } : {}, signal);
  if (r.conversation.unread > 0) {
    await supportApi.read(id);
    inboxChanged();
  }
  return { ...r, messages: mergeMessages(held?.messages ?? [], r.messages) };
}

function ConversationView({ id, onBack }: { id: string; onBack: () => void }) {
  const online = useOnline();
  const read = useApiQuery(supportKeys.conversation(id), ({ signal }) => readConversation(id, signal), { pollMs: online ? CONVERSATION_POLL_MS : false });
  const data = read.data;
  const messages = data?.messages ?? [];
  const loadError = read.error ? messageOf(read.error) : null;
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const pending = useRef<{ id: string; body: string } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

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
      setQueryData<StaffConversation>(supportKeys.conversation(id), (old) => (old ? { ...old, messages: mergeMessages(old.messages, [r.message]) } : old));
      setText('');
      inboxChanged();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSending(false);
    }
  }

  async function close() {
    try {
      await supportApi.close(id);
      await read.refetch();
      inboxChanged();
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
