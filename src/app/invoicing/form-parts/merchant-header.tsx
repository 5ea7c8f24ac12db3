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

/** `title` (default: the merchant's name) as an h1, or an h2 when the page has its own h1 above. */
export function MerchantHeader({ merchant, subtitle, title, titleId, level = 1 }: {
  merchant: MerchantEntry;
  subtitle?: string;
  title?: string;
  titleId?: string;
  level?: 1 | 2;
}) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className="merchant-head">
      <MerchantLogo merchant={merchant} />
      <div>
        <Heading id={titleId}>{title ?? merchant.name}</Heading>
        {subtitle && <p className="muted">{subtitle}</p>}
      </div>
    </div>
  );
}
