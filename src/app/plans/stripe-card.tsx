// Stripe's own card field: Stripe.js is loaded only when a checkout with Stripe opens (from the address the
// server names, STRIPE_JS_URL), and its Card Element lives in Stripe's frame, so the card number never
// reaches our page's code or our server. confirmCardPayment does 3-D Secure itself when the bank asks.
import { useEffect, useRef, useState } from 'react';

/** The part of a PaymentIntent Stripe.js hands back. */
export interface ConfirmedIntent {
  id: string;
  status: string;
}

export interface StripeJsError {
  type: string;
  code?: string;
  decline_code?: string;
  message?: string;
  payment_intent?: ConfirmedIntent;
}

export interface CardElement {
  mount(target: HTMLElement): void;
  on(event: 'change', handler: (e: { complete: boolean; error?: { message: string } }) => void): void;
  destroy(): void;
  focus(): void;
}

export interface StripeJs {
  elements(options?: { locale?: string }): { create(type: 'card', options?: Record<string, unknown>): CardElement };
  confirmCardPayment(clientSecret: string, data: { payment_method: { card: CardElement } }): Promise<{ paymentIntent?: ConfirmedIntent; error?: StripeJsError }>;
}

type StripeFactory = (publishableKey: string, options?: { locale?: string }) => StripeJs;

/** Stripe's Spanish for Latin America. */
const LOCALE = 'es-419';

const loading = new Map<string, Promise<StripeFactory>>();

/** Adds Stripe.js's script once per address and resolves with window.Stripe. */
function loadScript(url: string): Promise<StripeFactory> {
  const known = loading.get(url);
  if (known) return known;
  const p = new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => {
      const factory = (window as unknown as { Stripe?: StripeFactory }).Stripe;
      if (factory) resolve(factory);
      else reject(new Error('Stripe.js sin Stripe'));
    };
    script.onerror = () => reject(new Error('Stripe.js no cargó'));
    document.head.appendChild(script);
  });
  // A failed load (offline) may be tried again the next time the checkout opens.
  p.catch(() => loading.delete(url));
  loading.set(url, p);
  return p;
}

export async function loadStripe(url: string, publishableKey: string): Promise<StripeJs> {
  return (await loadScript(url))(publishableKey, { locale: LOCALE });
}

export type StripeCardState =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'ready'; stripe: StripeJs; card: CardElement; complete: boolean; error: string | null };

/** Loads Stripe.js, mounts a Card Element in `target` and follows what it reports; destroyed on unmount. */
export function useStripeCard(config: { publishable_key: string; js_url: string }): { state: StripeCardState; target: React.RefObject<HTMLDivElement | null> } {
  const target = useRef<HTMLDivElement | null>(null);
  const [state, setState] = useState<StripeCardState>({ status: 'loading' });
  const { publishable_key: key, js_url: url } = config;
  useEffect(() => {
    let card: CardElement | null = null;
    let gone = false;
    loadStripe(url, key).then(
      (stripe) => {
        if (gone || !target.current) return;
        const made = stripe.elements({ locale: LOCALE }).create('card', { hidePostalCode: true });
        card = made;
        made.mount(target.current);
        made.on('change', (e) => setState({ status: 'ready', stripe, card: made, complete: e.complete, error: e.error?.message ?? null }));
        setState({ status: 'ready', stripe, card: made, complete: false, error: null });
      },
      () => {
        if (!gone) setState({ status: 'failed' });
      },
    );
    return () => {
      gone = true;
      card?.destroy();
    };
  }, [url, key]);
  return { state, target };
}

/** The field's frame: Stripe fills it with its number, expiry and CVC inputs. */
export function StripeCardField({ target, error }: { target: React.RefObject<HTMLDivElement | null>; error: string | null }) {
  return (
    <div className="field checkout__stripe">
      <span className="field__label" id="stripe-card-label">
        Tarjeta
      </span>
      <div className="field__control">
        <div ref={target} className="field__input checkout__stripe-card" role="group" aria-labelledby="stripe-card-label" data-stripe-card />
      </div>
      {error && (
        <p className="field__error" aria-live="polite">
          {error}
        </p>
      )}
    </div>
  );
}
