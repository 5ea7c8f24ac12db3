// The page's instance of the one HTTP client (src/offline/http.ts): the stored session's token, and a
// 401 to a signed-in call ends the session (main.tsx wires what that does).
import { createHttp } from '../../offline/http';
import { getSession } from '../../offline/session';
import { TXT } from '../strings';
import { unauthorized } from './unauthorized';

export { setUnauthorizedHandler } from './unauthorized';

export const api = createHttp({
  getToken: () => getSession()?.token ?? null,
  onUnauthorized: unauthorized,
  offlineMessage: TXT.offline,
});
