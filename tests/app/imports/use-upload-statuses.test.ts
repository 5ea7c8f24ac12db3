import { describe, expect, it } from 'vitest';
import { eventStreamParser, readEventStream, type StreamEvent } from '../../../src/app/api/event-stream';
import { isFinalStatus, reconnectDelay, statusesPath } from '../../../src/app/imports/use-upload-statuses';
import { createHttp } from '../../../src/offline/http';

describe('the statuses stream', () => {
  it('reconnects after 1 s, 2 s, 4 s, … and never waits more than 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(reconnectDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('sends the token in the X-Access-Token header and keeps it out of the URL', async () => {
    const seen: Request[] = [];
    const http = createHttp({ getToken: () => 'a+b/c=', baseUrl: 'http://app.test', fetch: async (r) => (seen.push(r), new Response('')) });
    await http.raw(statusesPath(42), { headers: { Accept: 'text/event-stream' }, cache: 'no-store', timeout: false });
    const [req] = seen;
    expect(req!.url).toBe('http://app.test/api/v3/users/42/files/statuses');
    expect(req!.url).not.toContain('a+b');
    expect(req!.url).not.toContain('a%2Bb');
    expect(req!.headers.get('X-Access-Token')).toBe('a+b/c=');
    expect(req!.headers.get('Accept')).toBe('text/event-stream');
  });

  it('gives up on a refusal a retry cannot fix, and retries the rest', () => {
    expect([401, 403, 404].map(isFinalStatus)).toEqual([true, true, true]);
    expect([408, 429, 500, 502, 503].map(isFinalStatus)).toEqual([false, false, false, false, false]);
  });
});

describe('the event-stream parser', () => {
  const parse = (chunks: string[]) => {
    const seen: StreamEvent[] = [];
    const push = eventStreamParser((e) => seen.push(e));
    for (const c of chunks) push(c);
    return seen;
  };

  it('reads named events, joins data lines, skips comments and keeps the last id', () => {
    const seen = parse([': latido\n\n', 'event: file\nid: u1\ndata: {"a":1}\n\n', 'data: uno\ndata:dos\n\n']);
    expect(seen).toEqual([
      { event: 'file', data: '{"a":1}', id: 'u1' },
      { event: 'message', data: 'uno\ndos', id: 'u1' },
    ]);
  });

  it('handles events and line ends split across chunks (LF, CRLF, CR)', () => {
    const seen = parse(['event: fi', 'le\r', '\ndata: {"b"', ':2}\r\n\r', '\nevent: file\rdata: x\r\r']);
    expect(seen).toEqual([
      { event: 'file', data: '{"b":2}', id: '' },
      { event: 'file', data: 'x', id: '' },
    ]);
  });

  it('does not dispatch an event until its blank line arrives', () => {
    expect(parse(['event: file\ndata: incompleto\n'])).toEqual([]);
  });

  it('reads a byte stream with a multi-byte character split across chunks', async () => {
    const bytes = new TextEncoder().encode('event: file\ndata: {"name":"año.xml"}\n\n');
    const cut = bytes.indexOf(0xc3) + 1; // inside 'ñ'
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, cut));
        c.enqueue(bytes.slice(cut));
        c.close();
      },
    });
    const seen: StreamEvent[] = [];
    await readEventStream(body, (e) => seen.push(e));
    expect(seen).toEqual([{ event: 'file', data: '{"name":"año.xml"}', id: '' }]);
  });
});
