// The client keeps the known-device token a sign-in returns, outside what logout wipes, and sends it
// with the next sign-in of the same person (by username or e-mail), never another person's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { login } from '../../src/app/api/endpoints';
import { deviceTokenFor, forgetDeviceTokens } from '../../src/offline/device-token';
import { wipeLocalData } from '../../src/offline/wipe';

const sent: Record<string, unknown>[] = [];
let issued = 0;

// The HTTP client stands in for the server: it records each body and answers like POST /api/v2/login.
vi.mock('../../src/app/api/client', () => ({
  api: {
    post: async (_path: string, body: { user: { login: string } }) => {
      sent.push(body);
      issued++;
      const who = body.user.login.toLowerCase().startsWith('beto') ? { user_id: 2, email: 'beto@example.mx', username: 'beto' } : { user_id: 1, email: 'ana@example.mx', username: 'ana' };
      return { token: `s${issued}`, ...who, device_token: `d1.${who.user_id}.9.n${issued}.mac` };
    },
  },
}));

afterEach(async () => {
  sent.length = 0;
  await forgetDeviceTokens();
});

describe('known-device token at sign-in', () => {
  it('sends the token of an earlier sign-in of the same person, also after logout; keeps it out of the session', async () => {
    const first = await login('ana', 'Clave-Segura-2026', true);
    expect(first).toEqual({ token: 's1', user_id: 1, email: 'ana@example.mx', username: 'ana' });
    expect(sent[0]).not.toHaveProperty('device_token');
    await wipeLocalData({ dbName: 'device-token-test' });
    expect(await deviceTokenFor('ANA@example.mx ')).toBe('d1.1.9.n1.mac');

    await login('Ana@Example.mx', 'Clave-Segura-2026', true);
    expect(sent[1]).toMatchObject({ device_token: 'd1.1.9.n1.mac' });
    // A different person on the same device starts without one.
    await login('beto', 'Otra-Clave-2026', true);
    expect(sent[2]).not.toHaveProperty('device_token');
    // Each sign-in refreshes the kept token.
    expect(await deviceTokenFor('ana')).toBe('d1.1.9.n2.mac');
    expect(await deviceTokenFor('beto@example.mx')).toBe('d1.2.9.n3.mac');
  });
});
