// 'Facturar ticket' pickers (spec §2): ticket/new lists its merchants plus tiles for the hotel, airport,
// duty-free and steakhouse pickers; those list their own merchants (csj and duf as image tiles).
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { IMAGE_TILE_PICKERS, PICKERS, PICKER_TILES, merchantsIn, type MerchantEntry, type PickerId } from '../../../domain/merchants';
import { MerchantLogo } from '../form-parts/merchant-header';
import '../invoice.css';

function MerchantTile({ merchant, image }: { merchant: MerchantEntry; image: boolean }) {
  return (
    <li className={image ? 'picker-tile picker-tile--image' : 'picker-tile'}>
      <Link className="picker-tile__main" to="/ticket/form/$name" params={{ name: merchant.short_name }}>
        <MerchantLogo merchant={merchant} size={image ? 120 : 48} />
        <span className="picker-tile__name">{merchant.name}</span>
      </Link>
      {merchant.multi && (
        <Link className="picker-tile__extra" to="/ticket/form-multi/$name" params={{ name: merchant.short_name }}>
          Varios tickets en una factura
        </Link>
      )}
    </li>
  );
}

const PICKER_ROUTES = {
  mil: '/ticket/mil',
  oma: '/ticket/oma',
  csj: '/ticket/csj',
  duf: '/ticket/duf',
} as const;

function SubPickerTile({ picker }: { picker: Exclude<PickerId, 'new'> }) {
  const tile = PICKER_TILES[picker];
  return (
    <li className="picker-tile picker-tile--group">
      <Link className="picker-tile__main" to={PICKER_ROUTES[picker]}>
        <MerchantLogo merchant={{ name: tile.name, logo: tile.logo }} size={48} />
        <span className="picker-tile__name">{tile.name}</span>
      </Link>
    </li>
  );
}

export function PickerPage({ picker, top }: { picker: PickerId; top?: ReactNode }) {
  const def = PICKERS[picker];
  const image = IMAGE_TILE_PICKERS.includes(picker);
  const merchants = merchantsIn(picker);
  return (
    <main id="main" className="page invoice-page">
      <div className="page__title">
        <h1>{def.title}</h1>
        {picker !== 'new' && (
          <Link to="/ticket/new" className="picker-back">
            Todos los comercios
          </Link>
        )}
      </div>
      {top}
      <p className="muted">Elige dónde compraste para solicitar la factura de tu ticket.</p>
      <ul className={image ? 'picker-grid picker-grid--image' : 'picker-grid'} aria-label={def.title}>
        {merchants.map((m) => (
          <MerchantTile key={m.short_name} merchant={m} image={image} />
        ))}
        {def.subPickers?.map((p) => (
          <SubPickerTile key={p} picker={p as Exclude<PickerId, 'new'>} />
        ))}
      </ul>
    </main>
  );
}

// ticket/new is composed in the root (screens.tsx): 'Escanear código' comes from the scan feature.
export const HotelPickerPage = () => <PickerPage picker="mil" />;
export const AirportPickerPage = () => <PickerPage picker="oma" />;
export const SteakhousePickerPage = () => <PickerPage picker="csj" />;
export const DutyFreePickerPage = () => <PickerPage picker="duf" />;
