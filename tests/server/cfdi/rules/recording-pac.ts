// Shared by the before-stamping rule tests: the invoicing deps with a PAC that records what reaches it.
import type { PacPort } from '../../../../src/server/cfdi/pac';
import type { InvoiceDeps } from '../../../../src/server/invoicing/process';
import type { InvoicingEnv } from '../../invoicing/invoicing-helpers';

/** The environment's deps with its PAC wrapped: every XML sent to stamp is pushed to `sent`; everything else is the sandbox's. */
export function depsRecordingStamps(env: InvoicingEnv, sent: string[]): InvoiceDeps {
  const pac = new Proxy(env.pac, {
    get(target, key) {
      if (key === 'stamp') return async (xml: string) => { sent.push(xml); return target.stamp(xml); };
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as PacPort;
  return { ...env.deps, pac };
}
