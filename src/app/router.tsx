// Code-based routes with hash history (spec §2). Each screen is its own lazy chunk; the guard in
// the root route applies the top-level choice of top-level.ts on every navigation.
import {
  createHashHistory,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  notFound,
  redirect,
} from '@tanstack/react-router';
import { hasSession } from '../offline/session';
import { guardRoute } from './top-level';
import { RootLayout } from './root-layout';
import { NotFound } from './not-found';
import { RouteError } from './route-error';
import {
  loadForgotPasswordPage, loadJoinPage, loadOAuthPage, loadReceiptViewPage, loadRegisterPage, loadResetPasswordPage,
} from './signed-out-screens';
import { parseSearch, stringifySearch } from './search-params';
import { HomeScreen, NewPickerScreen, SubscriptionScreen } from './screens';
// The two screens a newcomer lands on (the signed-out start and the login) come with the app's first
// script: on a slow connection they then show as soon as it runs, not after a chain of chunks.
import { LoginPage } from './auth/login-page';
import { AnonymousFormPage } from './invoicing/anonymous-form/anonymous-form-page';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

const rootRoute = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFound,
  beforeLoad: ({ location }) => {
    const guard = guardRoute(`${location.pathname}${location.searchStr}`, hasSession());
    if (guard.kind === 'redirect') {
      throw redirect({ to: guard.to, search: guard.redirect ? { redirect: guard.redirect } : {}, replace: true });
    }
    if (guard.kind === 'not-found') throw notFound();
  },
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: (s: Record<string, unknown>): { redirect?: string } => (str(s.redirect) ? { redirect: str(s.redirect) } : {}),
  component: LoginPage,
});

const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'register',
  validateSearch: (s: Record<string, unknown>): { redirect?: string } => (str(s.redirect) ? { redirect: str(s.redirect) } : {}),
  component: lazyRouteComponent(loadRegisterPage, 'RegisterPage'),
});

const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'forgot-password',
  component: lazyRouteComponent(loadForgotPasswordPage, 'ForgotPasswordPage'),
});

const resetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'reset-password',
  validateSearch: (s: Record<string, unknown>): { token?: string } => (str(s.token) ? { token: str(s.token) } : {}),
  component: lazyRouteComponent(loadResetPasswordPage, 'ResetPasswordPage'),
});

/** The signed-in layout: the only place that loads Dexie. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  component: lazyRouteComponent(() => import('./signed-in-layout'), 'SignedInLayout'),
});

const indexRoute = createRoute({ getParentRoute: () => appRoute, path: '/', component: HomeScreen });
const homeRoute = createRoute({ getParentRoute: () => appRoute, path: 'home', component: HomeScreen });

const addClientRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'add-client',
  component: lazyRouteComponent(() => import('./accounts/add-client-page'), 'AddClientPage'),
});

const editInvoicementRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'edit-invoicement',
  component: lazyRouteComponent(() => import('./accounts/edit-invoicement-page'), 'EditInvoicementPage'),
});

const annualRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'annual',
  component: lazyRouteComponent(() => import('./annual/annual-page'), 'AnnualPage'),
});

// 'Facturar ticket': pickers and the merchant forms, inside the signed-in layout.
const invoicePickers = () => import('./invoicing/pickers/picker-page');
const ticketNewRoute = createRoute({ getParentRoute: () => appRoute, path: 'ticket/new', component: NewPickerScreen });
const ticketMilRoute = createRoute({ getParentRoute: () => appRoute, path: 'ticket/mil', component: lazyRouteComponent(invoicePickers, 'HotelPickerPage') });
const ticketOmaRoute = createRoute({ getParentRoute: () => appRoute, path: 'ticket/oma', component: lazyRouteComponent(invoicePickers, 'AirportPickerPage') });
const ticketCsjRoute = createRoute({ getParentRoute: () => appRoute, path: 'ticket/csj', component: lazyRouteComponent(invoicePickers, 'SteakhousePickerPage') });
const ticketDufRoute = createRoute({ getParentRoute: () => appRoute, path: 'ticket/duf', component: lazyRouteComponent(invoicePickers, 'DutyFreePickerPage') });
const ticketFormRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'ticket/form/$name',
  component: lazyRouteComponent(() => import('./invoicing/ticket-form/ticket-form-page'), 'TicketFormPage'),
});
const ticketFormMultiRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'ticket/form-multi/$name',
  component: lazyRouteComponent(() => import('./invoicing/multi-form/multi-form-page'), 'MultiFormPage'),
});
const merchantRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'merchant/$merchant',
  // From a scanned ticket QR: ref, check and total prefill and verify the ticket.
  // The page reads ref/check/total from the raw query (merchant-form-page qrFromSearch): typed here for links.
  validateSearch: (s: Record<string, unknown>): { ref?: string; check?: string; total?: string } => ({
    ...(typeof s.ref === 'string' ? { ref: s.ref } : {}),
    ...(typeof s.check === 'string' ? { check: s.check } : {}),
    ...(typeof s.total === 'string' ? { total: s.total } : {}),
  }),
  component: lazyRouteComponent(() => import('./invoicing/merchant-form/merchant-form-page'), 'MerchantFormPage'),
});
const invoiceRoutes = [
  ticketNewRoute, ticketMilRoute, ticketOmaRoute, ticketCsjRoute, ticketDufRoute, ticketFormRoute, ticketFormMultiRoute, merchantRoute,
];

/** The anonymous form works signed in or out, outside the signed-in layout (no Dexie). */
const anonymousFormRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'ticket/form-anonymous/$name',
  component: AnonymousFormPage,
});

/** Top-level rule 1: the public, read-only receipt of a merchant ticket, outside the signed-in layout. */
const ticketsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'tickets',
  // Search values arrive JSON-parsed (an all-digit folio becomes a number): keep them as text.
  validateSearch: (s: Record<string, unknown>): { ref?: string; rfc?: string; folio?: string } => {
    const ref = str(s.ref);
    const rfc = str(s.rfc);
    const folio = str(s.folio);
    return { ...(ref ? { ref } : {}), ...(rfc ? { rfc } : {}), ...(folio ? { folio } : {}) };
  },
  component: lazyRouteComponent(loadReceiptViewPage, 'ReceiptViewPage'),
});

/** Top-level rule 2: the OAuth authorisation screen, signed in or not, outside the signed-in layout. */
const oauthRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'oauth',
  validateSearch: (s: Record<string, unknown>): { oauth_token?: string } => {
    const t = str(s.oauth_token);
    return t ? { oauth_token: t } : {};
  },
  component: lazyRouteComponent(loadOAuthPage, 'OAuthPage'),
});

/** The staff support inbox; the page shows not-found to everyone else. */
const supportRoute = createRoute({ getParentRoute: () => appRoute, path: 'support', component: lazyRouteComponent(() => import('./chat/support-page'), 'SupportPage') });

// Pricing (personal and company), the subscription profile.
const plansPage = () => import('./plans/pricing-page');
const plansRoute = createRoute({ getParentRoute: () => appRoute, path: 'plans', component: lazyRouteComponent(plansPage, 'PlansPage') });
const companyPlansRoute = createRoute({ getParentRoute: () => appRoute, path: 'plans/company', component: lazyRouteComponent(plansPage, 'CompanyPlansPage') });
const subscriptionRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'subscription',
  component: SubscriptionScreen,
});

// The company (collaborators and departments; the tab is the inner hash, company/company-tab.ts)
// and the join screen of an invitation (top-level rule 3, signed in or not, outside the signed-in layout).
const companyRoute = createRoute({ getParentRoute: () => appRoute, path: 'company', component: lazyRouteComponent(() => import('./company/company-page'), 'CompanyPage') });
// Per-diem (viáticos) events, gated by Viaticos inside the page.
const perDiemRoute = createRoute({ getParentRoute: () => appRoute, path: 'per-diem', component: lazyRouteComponent(() => import('./per-diem/per-diem-page'), 'PerDiemPage') });
const companyViewRoute = createRoute({ getParentRoute: () => appRoute, path: 'company-view', component: lazyRouteComponent(() => import('./company-view/company-view-page'), 'CompanyViewPage') });
const joinRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'join',
  validateSearch: (s: Record<string, unknown>): { token?: string } => (str(s.token) ? { token: str(s.token) } : {}),
  component: lazyRouteComponent(loadJoinPage, 'JoinPage'),
});

// SAT sync.
const syncRoute = createRoute({ getParentRoute: () => appRoute, path: 'sync', component: lazyRouteComponent(() => import('./sat-sync/sync-page'), 'SyncPage') });
const verifyRfcRoute = createRoute({ getParentRoute: () => appRoute, path: 'verify-rfc', component: lazyRouteComponent(() => import('./rfc-verification/verify-rfc-page'), 'VerifyRfcPage') });

/** Every other signed-in path (plans, subscription, sync, company, ticket/*, …) until its issue lands. */
const signedInNotFoundRoute = createRoute({ getParentRoute: () => appRoute, path: '$', component: NotFound });

const routeTree = rootRoute.addChildren([
  loginRoute,
  registerRoute,
  forgotRoute,
  resetRoute,
  anonymousFormRoute,
  ticketsRoute,
  oauthRoute,
  joinRoute,
  appRoute.addChildren([indexRoute, homeRoute, addClientRoute, editInvoicementRoute, annualRoute, ...invoiceRoutes, supportRoute, plansRoute, companyPlansRoute, subscriptionRoute, syncRoute, verifyRfcRoute, companyRoute, companyViewRoute, perDiemRoute, signedInNotFoundRoute]),
]);

export function createAppRouter() {
  return createRouter({
    routeTree,
    history: createHashHistory(),
    defaultNotFoundComponent: NotFound,
    defaultErrorComponent: RouteError,
    defaultPreload: 'intent',
    scrollRestoration: true,
    parseSearch,
    stringifySearch,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
