// Server-sent events read with fetch, so the session token travels in the X-Access-Token header and
// never in the URL (DESIGN §3): EventSource cannot send headers. The parser follows the HTML event-stream
// format: `event:`, `data:` (several lines joined by '\n') and `id:` fields, ':' comments, a blank
// line dispatching; LF, CRLF or CR line ends, split anywhere across chunks.

export interface StreamEvent {
  event: string;
  data: string;
  id: string;
}

/** Feeds text chunks in; calls `onEvent` for each complete event. */
export function eventStreamParser(onEvent: (event: StreamEvent) => void): (chunk: string) => void {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id = '';
  /** A CR ended the last chunk: a LF starting the next one belongs to it. */
  let pendingCr = false;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n'), id });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
  };

  return (chunk) => {
    let text = chunk;
    if (pendingCr && text.startsWith('\n')) text = text.slice(1);
    pendingCr = false;
    buffer += text;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(buffer);
      if (!m) break;
      // A lone CR at the very end may be the first half of a CRLF split across chunks.
      if (m[0] === '\r' && m.index === buffer.length - 1) pendingCr = true;
      line(buffer.slice(0, m.index));
      buffer = buffer.slice(m.index + m[0].length);
    }
  };
}

/** Reads a response body to its end (or until `signal` aborts), dispatching its events. */
export async function readEventStream(body: ReadableStream<Uint8Array>, onEvent: (event: StreamEvent) => void): Promise<void> {
  const push = eventStreamParser(onEvent);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      push(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}
