// The merchant's logo and name on top of its forms (spec §2 'Ticket form: merchant logo and name').
import { useState } from 'react';
import type { MerchantEntry } from '../../../domain/merchants';

/** Our drawn logo; if it fails to load, the merchant's initials keep the tile readable. */
export function MerchantLogo({ merchant, size = 56 }: { merchant: Pick<MerchantEntry, 'name' | 'logo'>; size?: number }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    const initials = merchant.name.replace(/[^A-Za-zÁÉÍÓÚÑáéíóúñ ]/g, '').split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]).join('').toUpperCase();
    return (
      <span className="merchant-logo merchant-logo--fallback" style={{ width: size, height: size }} aria-hidden="true">
        {initials}
      </span>
    );
  }
  return <img className="merchant-logo" src={merchant.logo} alt="" width={size} height={size} onError={() => setFailed(true)} />;
}

export function MerchantHeader({ merchant, subtitle }: { merchant: MerchantEntry; subtitle?: string }) {
  return (
    <div className="merchant-head">
      <MerchantLogo merchant={merchant} />
      <div>
        <h1>{merchant.name}</h1>
        {subtitle && <p className="muted">{subtitle}</p>}
      </div>
    </div>
  );
}
