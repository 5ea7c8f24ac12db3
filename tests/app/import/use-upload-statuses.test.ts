import { describe, expect, it } from 'vitest';
import { reconnectDelay, statusesUrl } from '../../../src/app/import/use-upload-statuses';

describe('the statuses stream', () => {
  it('reconnects after 1 s, 2 s, 4 s, … and never waits more than 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(reconnectDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('carries the token as access_token (EventSource sends no headers), escaped', () => {
    expect(statusesUrl(42, 'a+b/c=')).toBe('/api/v3/users/42/files/statuses?access_token=a%2Bb%2Fc%3D');
  });
});
