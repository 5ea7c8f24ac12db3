// The upload statuses stream as the benchmarks read it (import.ts, uploads.ts): each `file` event, parsed.
import type { FileEvent } from '../../src/domain/import-files';

/** The stream's events until `signal` aborts; throws if the server ends the stream first. `query`: e.g. '?ids[]=…'. */
export async function* statusEvents(base: string, userId: number, token: string, signal: AbortSignal, query = ''): AsyncGenerator<FileEvent> {
  const res = await fetch(`${base}/api/v3/users/${userId}/files/statuses${query}`, { headers: { 'X-Access-Token': token }, signal });
  if (!res.ok || !res.body) throw new Error(`statuses: ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error('el stream terminó antes de tiempo');
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer.slice(0, cut).split('\n').find((l) => l.startsWith('data: '));
      buffer = buffer.slice(cut + 2);
      if (data) yield JSON.parse(data.slice(6)) as FileEvent;
    }
  }
}
