// Which provider runs: Stripe when STRIPE_SECRET_KEY is set (STRIPE_API_URL points tests at a fake),
// else the embedded sandbox. config.ts reads both (readStripeEnv).
import { processEnv, readStripeEnv } from '../config';
import type { PaymentProvider } from './provider';
import { SandboxProvider } from './sandbox';
import { StripeProvider, STRIPE_DEFAULT_URL } from './stripe';

export function paymentProviderFromEnv(clock: () => Date, env: NodeJS.ProcessEnv = processEnv()): PaymentProvider {
  const { secretKey, apiUrl } = readStripeEnv(env);
  if (secretKey) return new StripeProvider(secretKey, apiUrl ?? STRIPE_DEFAULT_URL);
  return new SandboxProvider(clock);
}
