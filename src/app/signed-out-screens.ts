// The screens a visitor opens before signing in: often a first visit from an e-mail or a shared link,
// with nothing cached yet. The build gives each of these imports <link rel=modulepreload> elements for
// the chunks the screen imports (vite.config.ts reads this module's dynamic imports), so they arrive in
// one wave with the screen's own chunk rather than after it. Signed-in screens do without: they come
// from the service worker's cache, where the links would only cost main-thread time. Not here: the form
// under the signed-out start's intro, whose 16 imports announced at once would compete with the intro's
// first paint (Lighthouse on the start page: largest paint +250 ms, blocking time +38 ms).
export const loadRegisterPage = () => import('./register/register-page');
export const loadForgotPasswordPage = () => import('./auth/forgot-password-page');
export const loadResetPasswordPage = () => import('./auth/reset-password-page');
export const loadReceiptViewPage = () => import('./ticket-view/receipt-view-page');
export const loadOAuthPage = () => import('./oauth/oauth-page');
export const loadJoinPage = () => import('./join/join-page');
