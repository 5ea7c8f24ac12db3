// The checkout's call: a refused card keeps its decline code (the dialog says why and keeps the card),
// and every other answer goes through the one client's rules (a 401 ends the session).
import { afterEach, expect, it, vi } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { setUnauthorizedHandler } from '../../../src/app/api/client';
import { CardDeclined, subscribe } from '../../../src/app/plans/plans-api';
import { clearSession, saveSession } from '../../../src/offline/session';

const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(async () => {
  vi.unstubAllGlobals();
  await clearSession();
});

it('a 402 with a decline code becomes CardDeclined, said in Spanish', async () => {
  await saveSession({ token: 't', user_id: 1, email: 'a@b.mx', username: 'ana' }, true);
  vi.stubGlobal('fetch', vi.fn(async () => json({ errors: [MSG.chargeFailed], decline_code: 'insufficient_funds' }, 402)));
  const declined = await subscribe(4, 1, 'tok').catch((e: unknown) => e);
  expect(declined).toBeInstanceOf(CardDeclined);
  expect(declined).toMatchObject({ code: 'insufficient_funds', message: 'Fondos insuficientes' });
});

it('a 402 without one is the server message; a 401 ends the session like any other call', async () => {
  await saveSession({ token: 't', user_id: 1, email: 'a@b.mx', username: 'ana' }, true);
  const ended = vi.fn();
  setUnauthorizedHandler(ended);
  vi.stubGlobal('fetch', vi.fn(async () => json({ errors: [MSG.chargeFailed] }, 402)));
  await expect(subscribe(4, 1, 'tok')).rejects.toMatchObject({ status: 402, message: MSG.chargeFailed });
  vi.stubGlobal('fetch', vi.fn(async () => json({ errors: ['x'] }, 401)));
  await expect(subscribe(4, 1, 'tok')).rejects.toMatchObject({ status: 401, message: MSG.unauthorized });
  expect(ended).toHaveBeenCalledTimes(1);
});
