// The page's instance of the one HTTP client (src/offline/http.ts): the stored session's token, and a
// 401 to a signed-in call ends the session (main.tsx wires what that does).
import { createHttp } from '../../offline/http';
import { getSession } from '../../offline/session';
import { TXT } from '../strings';

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => undefined;

/** main.tsx wires this to "clear the session, toast, go to login" (kept out of here to avoid a cycle with the router). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

export const api = createHttp({
  getToken: () => getSession()?.token ?? null,
  onUnauthorized: () => onUnauthorized(),
  offlineMessage: TXT.offline,
});
