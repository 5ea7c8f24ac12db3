// The whole HTTP surface as one Hono app, built from its dependencies so tests can call app.request().
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { MSG } from '../domain/messages';
import { createClient } from './accounts/clients';
import { accountRoutes } from './accounts/routes';
import { monthlyTotals } from './analytics/queries';
import { analyticsRoutes } from './analytics/routes';
import { issueSession, resolveSession, SessionCache } from './accounts/sessions';
import { createUser, registrationProblem } from './accounts/users';
import { AccountsCache } from './accounts/accounts-cache';
import { hmacKeySource, spendSolution } from './captcha/altcha';
import { captchaRoutes } from './captcha/routes';
import { catalogRoutes } from './catalog/routes';
import { appLinksRoutes } from './app-links/routes';
import { chatRoutes } from './chat/routes';
import { companyRoutes } from './company/routes';
import { perDiemRoutes } from './per-diem/routes';
import { companyViewRoutes } from './company-view/routes';
import { DEFAULT_CONFIG, type AppDeps, type AppEnv, type Services } from './context';
import { jsonBody } from './http/body';
import { clientIp } from './http/client-ip';
import { refuseControlChars } from './http/control-chars';
import { devOnly } from './http/dev-only';
import { ApiError } from './http/errors';
import { idempotency } from './http/idempotency';
import { memoryLimits } from './lib/ip-limiter';
import { importCfdiBatch } from './imports/import-cfdi';
import { importRoutes, REQUEST_LIMIT as IMPORT_REQUEST_LIMIT } from './imports/routes';
import { uploadGate } from './imports/upload-limits';
import { formTicketRequest, invoicingRoutes } from './invoicing/routes';
import { merchantRoutes } from './merchants/routes';
import { securityHeaders } from './http/security-headers';
import { staticFiles } from './http/static';
import { memoryFileStore } from './files/file-store';
import { devMailboxRoutes } from './mail/dev-mailbox';
import { openApiRoutes } from './openapi/routes';
import { oauthRoutes } from './oauth/routes';
import { refuseAppToken } from './oauth/session-guard';
import { plansRoutes } from './plans/routes';
import { rateSourceFor } from './rates/rates';
import { rateRoutes } from './rates/routes';
import { rfcRoutes } from './rfc/routes';
import { satSyncRoutes } from './sat-sync/routes';
import { rfcVerificationRoutes } from './rfc-verification/routes';
import { receiptRoutes } from './receipts/routes';
import { hostedReceipt } from './company/host-access';
import { assertOwnInvoiceRequest } from './invoicing/pdf-access';
import { assertOwnImage } from './tickets/images';
import { ticketRoutes } from './tickets/routes';
import { ticketViewRoutes } from './ticket-view/routes';
import { logUnexpected, routePattern } from './http/log-redact';
import { demoMerchants, merchantSide } from './wiring';
import { adoptRoutes, definedRoutes } from './http/route';

export type { AppDeps } from './context';

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const config = { ...DEFAULT_CONFIG, ...deps.config };
  const clock = deps.clock ?? (() => new Date());
  const sessions = new SessionCache(config.sessionCacheMs);
  if (deps.bus) sessions.attach(deps.bus);
  const s: Services = {
    db: deps.db,
    mailer: deps.mailer,
    clock,
    config,
    sessions,
    accounts: new AccountsCache(),
    files: deps.files ?? memoryFileStore(),
    rates: deps.rates ?? rateSourceFor(deps.db, config),
    limits: deps.limits ?? memoryLimits,
    authenticate: async (c, token) => {
      refuseAppToken(c, token); // an app's OAuth token is never a session: 403
      return token ? resolveSession(deps.db, sessions, token, clock) : null;
    },
  };
  if (deps.listen) {
    s.accounts.attach(deps.listen).catch((err: unknown) => console.error('[cache] sin notificaciones:', err));
  }
  const hmacKey = hmacKeySource(s.db, config.altchaHmacKey);
  const app = new Hono<AppEnv>();

  app.use(securityHeaders(config.trustProxy));
  app.use(compress());
  app.use(async (c, next) => {
    c.set('ip', clientIp(c, config.trustProxy));
    c.set('auth', undefined);
    await next();
    // API answers are per user: never cached by the browser or a proxy unless a route says so.
    if (!c.res.headers.has('Cache-Control') && c.res.headers.get('Content-Type')?.startsWith('application/json')) {
      c.res.headers.set('Cache-Control', 'no-store');
    }
  });
  // Before any body parsing: a /dev/… request from anyone but this machine goes no further.
  app.use('/dev/*', devOnly(config));
  // Control characters (NUL…) in the URL or a data header: a Spanish 400 before anything reads them.
  app.use(refuseControlChars());
  app.use(jsonBody());
  // Upload slots and the storage quota before the Idempotency-Key layer reads (spools) the body.
  app.use('/api/v3/users/:id/files', uploadGate(s));
  // Multipart bodies are bounded like the biggest upload route ('Importar CFDIs').
  app.use(idempotency(s, { multipartLimit: IMPORT_REQUEST_LIMIT }));

  // Every area's routes, each recorded (http/route.ts) for the OpenAPI document.
  const mount = (routes: Hono<AppEnv>) => {
    app.route('/', routes);
    adoptRoutes(app, routes);
  };
  mount(captchaRoutes(s, hmacKey));
  mount(accountRoutes(s, hmacKey, spendSolution));
  mount(catalogRoutes(s));
  mount(appLinksRoutes(s));
  mount(ticketRoutes(s, monthlyTotals, formTicketRequest(s, deps, merchantSide)));
  mount(analyticsRoutes(s));
  mount(receiptRoutes(s, { ownImage: assertOwnImage, ownInvoiceRequest: assertOwnInvoiceRequest, hostedReceipt }));
  mount(rateRoutes(s));
  mount(importRoutes(s, deps.imports));
  mount(merchantRoutes(s, deps));
  mount(rfcRoutes(s));
  mount(invoicingRoutes(s, deps, importCfdiBatch, merchantSide));
  mount(ticketViewRoutes(s, deps));
  mount(chatRoutes(s, deps));
  mount(plansRoutes(s, deps));
  mount(companyRoutes(s, { registrationProblem, createUser, createClient, issueSession }));
  mount(perDiemRoutes(s));
  mount(companyViewRoutes(s));
  mount(satSyncRoutes(s, deps, demoMerchants));
  mount(rfcVerificationRoutes(s));
  mount(oauthRoutes(s));
  if (config.devTools) mount(devMailboxRoutes(s));
  // The document lists every route the areas define (defineRoute), this one's included.
  mount(openApiRoutes(() => definedRoutes(app)));

  const files = config.staticDir ? staticFiles(config.staticDir) : null;
  if (files) app.use('*', files);

  app.notFound((c) => c.json({ errors: [MSG.notFound] }, 404));
  app.onError((err, c) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json({ errors: err.messages }, err.status);
    }
    logUnexpected(c.req.method, routePattern(c), err);
    return c.json({ errors: [MSG.generic] }, 500);
  });
  return app;
}
