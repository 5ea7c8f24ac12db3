// Which provider runs: Stripe when STRIPE_SECRET_KEY is set (STRIPE_API_URL points tests at a fake),
// else the embedded sandbox. Read from the environment here until config.ts carries them.
import type { PaymentProvider } from './provider';
import { SandboxProvider } from './sandbox';
import { StripeProvider, STRIPE_DEFAULT_URL } from './stripe';

export function paymentProviderFromEnv(clock: () => Date, env: NodeJS.ProcessEnv = process.env): PaymentProvider {
  const key = env.STRIPE_SECRET_KEY?.trim();
  if (key) return new StripeProvider(key, env.STRIPE_API_URL?.trim() || STRIPE_DEFAULT_URL);
  return new SandboxProvider(clock);
}
