import { describe, expect, it } from 'vitest';
import { backoffMs, BACKOFF_MAX_MS, classify } from '../../src/domain/outbox-ops';

describe('outbox answer classification (DESIGN §4)', () => {
  it('removes only on 2xx', () => {
    expect(classify(200)).toBe('done');
    expect(classify(204)).toBe('done');
  });
  it('retries network errors, 408, 425, 429 and 5xx', () => {
    for (const s of ['network', 408, 425, 429, 500, 502, 503] as const) expect(classify(s)).toBe('retry');
  });
  it('pauses on 401 and parks other 4xx', () => {
    expect(classify(401)).toBe('pause');
    for (const s of [400, 403, 404, 409, 413, 415, 422]) expect(classify(s)).toBe('park');
  });
});

describe('backoff', () => {
  it('grows exponentially within jitter bounds and caps at 5 minutes', () => {
    expect(backoffMs(1, () => 0)).toBe(1000);
    expect(backoffMs(1, () => 1)).toBe(2000);
    expect(backoffMs(3, () => 1)).toBe(8000);
    expect(backoffMs(30, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(30, () => 0)).toBe(BACKOFF_MAX_MS / 2);
  });
  it('honours a longer Retry-After', () => {
    expect(backoffMs(1, () => 0, 30)).toBe(30_000);
    expect(backoffMs(5, () => 1, 1)).toBe(32_000);
  });
});
