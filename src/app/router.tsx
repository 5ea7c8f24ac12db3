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
  component: lazyRouteComponent(() => import('./auth/login-page'), 'LoginPage'),
});

const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'register',
  validateSearch: (s: Record<string, unknown>): { redirect?: string } => (str(s.redirect) ? { redirect: str(s.redirect) } : {}),
  component: lazyRouteComponent(() => import('./register/register-page'), 'RegisterPage'),
});

const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'forgot-password',
  component: lazyRouteComponent(() => import('./auth/forgot-password-page'), 'ForgotPasswordPage'),
});

const resetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'reset-password',
  validateSearch: (s: Record<string, unknown>): { token?: string } => (str(s.token) ? { token: str(s.token) } : {}),
  component: lazyRouteComponent(() => import('./auth/reset-password-page'), 'ResetPasswordPage'),
});

/** The signed-in layout: the only place that loads Dexie. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  component: lazyRouteComponent(() => import('./layout/signed-in-layout'), 'SignedInLayout'),
});

const homeComponent = lazyRouteComponent(() => import('./home/home-page'), 'HomePage');

const indexRoute = createRoute({ getParentRoute: () => appRoute, path: '/', component: homeComponent });
const homeRoute = createRoute({ getParentRoute: () => appRoute, path: 'home', component: homeComponent });

const addClientRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'add-client',
  component: lazyRouteComponent(() => import('./account/add-client-page'), 'AddClientPage'),
});

const editInvoicementRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'edit-invoicement',
  component: lazyRouteComponent(() => import('./account/edit-invoicement-page'), 'EditInvoicementPage'),
});

const annualRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'annual',
  component: lazyRouteComponent(() => import('./annual/annual-page'), 'AnnualPage'),
});

/** Every other signed-in path (plans, subscription, sync, company, ticket/*, …) until its issue lands. */
const signedInNotFoundRoute = createRoute({ getParentRoute: () => appRoute, path: '$', component: NotFound });

const routeTree = rootRoute.addChildren([
  loginRoute,
  registerRoute,
  forgotRoute,
  resetRoute,
  appRoute.addChildren([indexRoute, homeRoute, addClientRoute, editInvoicementRoute, annualRoute, signedInNotFoundRoute]),
]);

export function createAppRouter() {
  return createRouter({
    routeTree,
    history: createHashHistory(),
    defaultNotFoundComponent: NotFound,
    defaultPreload: 'intent',
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
