// Issue 6 routes of src/server/invoicing (being built: see the module's other files).
import { Hono } from 'hono';
import type { AppDeps, AppEnv, Services } from '../context';

export function invoicingRoutes(_s: Services, _deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
