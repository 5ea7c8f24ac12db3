// The gate in front of every /dev/… page (the mailbox shows every password-reset link, so it must never
// face the public): off unless config.devTools (readEnv: embedded demo only), and then only for a client
// on this machine. The test is the socket's own peer address, never X-Forwarded-For: with TRUST_PROXY that
// header names whoever the proxy says. A request that a proxy or tunnel relayed (ngrok, a local Caddy)
// also arrives from loopback, so any forwarding header means "someone else" and is refused too.
import type { MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppConfig, AppEnv } from '../context';

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip'];

/** 127.0.0.0/8, ::1, and IPv4-mapped 127.x as a dual-stack socket reports it. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

function socketAddress(c: Parameters<MiddlewareHandler>[0]): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // No socket (app.request() without bindings): not provably local.
    return undefined;
  }
}

/** Answers the app's JSON 404 for /dev/… unless the dev tools are on and the caller is this machine. */
export function devOnly(config: Pick<AppConfig, 'devTools'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const local = config.devTools && isLoopbackAddress(socketAddress(c)) && !FORWARDING_HEADERS.some((h) => c.req.header(h) !== undefined);
    if (!local) return c.notFound();
    await next();
  };
}
