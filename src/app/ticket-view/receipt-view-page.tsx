// The public receipt of a merchant ticket (top-level rule 1, `#/tickets?ref=…`): no sign-in. Loading, then
// the receipt, or the error flag (spec: no receipt data is shown) under our logo, with a way into the app:
// whoever scanned a QR from a printed ticket lands here with nothing to go back to.
import { useEffect, useState } from 'react';
import { useSearch } from '@tanstack/react-router';
import { formatMoney } from '../../domain/money';
import { api } from '../api/client';
import { buttonClass } from '../ui/button';
import { groupFolio, matchesLink, readReceipt, REF_PATTERN, type Receipt } from './receipt-model';
import './receipt-view.css';

export const RECEIPT_TXT = {
  loading: 'Cargando…',
  error: 'No pudimos mostrar este ticket.',
  errorHint: 'Revisa que el enlace esté completo o vuelve a escanear el código QR de tu ticket.',
  home: 'Ir a Cuentas Claras',
  total: 'Total',
  subtotal: 'Subtotal',
  tax: 'IVA',
  rfc: 'RFC del emisor',
  folio: 'Folio',
  date: 'Fecha',
  place: 'Lugar de expedición',
  payment: 'Forma de pago',
  items: 'Conceptos',
  qr: 'Código QR para verificar este ticket',
  quantity: 'Cantidad',
  description: 'Descripción',
  amount: 'Importe',
} as const;

type ViewState = { kind: 'loading' } | { kind: 'error' } | { kind: 'loaded'; receipt: Receipt };

export interface ReceiptSearch {
  ref?: string;
  rfc?: string;
  folio?: string;
}

async function loadReceipt(search: ReceiptSearch, signal: AbortSignal): Promise<Receipt | null> {
  const ref = search.ref ?? '';
  if (!REF_PATTERN.test(ref)) return null;
  const res = await api.raw(`/api/v3/tickets/${ref}?format=json`, { signal, headers: { Accept: 'application/xml' }, anonymous: true });
  if (!res.ok) return null;
  const doc = new DOMParser().parseFromString(await res.text(), 'application/xml');
  const receipt = readReceipt(doc, res.headers, ref);
  return receipt && matchesLink(receipt, search) ? receipt : null;
}

export function ReceiptViewPage() {
  const search = useSearch({ strict: false }) as ReceiptSearch;
  const { ref, rfc, folio } = search;
  // The answer for one link; another link is still loading.
  const link = JSON.stringify([ref, rfc, folio]);
  const [answer, setAnswer] = useState<{ link: string; state: ViewState } | null>(null);
  const state: ViewState = answer && answer.link === link ? answer.state : { kind: 'loading' };

  useEffect(() => {
    const ctrl = new AbortController();
    loadReceipt({ ref, rfc, folio }, ctrl.signal)
      .then((receipt) => setAnswer({ link, state: receipt ? { kind: 'loaded', receipt } : { kind: 'error' } }))
      .catch(() => {
        if (!ctrl.signal.aborted) setAnswer({ link, state: { kind: 'error' } });
      });
    return () => ctrl.abort();
  }, [link, ref, rfc, folio]);

  return <ReceiptView state={state} />;
}

export function ReceiptView({ state }: { state: ViewState }) {
  return (
    <main className="receipt-page">
      {state.kind === 'loading' && <p className="receipt-status" role="status">{RECEIPT_TXT.loading}</p>}
      {state.kind === 'error' && <ReceiptProblem />}
      {state.kind === 'loaded' && <ReceiptCard r={state.receipt} />}
    </main>
  );
}

function ReceiptProblem() {
  return (
    <section className="receipt receipt-problem" aria-labelledby="receipt-problem">
      <img className="receipt-problem__logo" src="/favicon.svg" alt="Cuentas Claras" width="48" height="48" />
      <h1 id="receipt-problem" className="receipt-status receipt-error" role="alert" data-error="true">
        {RECEIPT_TXT.error}
      </h1>
      <p className="receipt-problem__hint">{RECEIPT_TXT.errorHint}</p>
      <a className={buttonClass('primary')} href="/#/">
        {RECEIPT_TXT.home}
      </a>
    </section>
  );
}

function ReceiptCard({ r }: { r: Receipt }) {
  return (
    <article className="receipt" aria-labelledby="receipt-venue">
      <header className="receipt__head">
        {r.venueLogo && <img className="receipt__logo" src={r.venueLogo} alt="" width="64" height="64" />}
        <div>
          <h1 id="receipt-venue" className="receipt__venue">{r.venueName}</h1>
          {r.branch && <p className="receipt__branch">{r.branch}</p>}
        </div>
      </header>
      <p className="receipt__total">
        <span className="receipt__label">{RECEIPT_TXT.total}</span>
        <span className="tabular">{formatMoney(r.total)}</span>
      </p>
      <table className="receipt__lines">
        <caption className="visually-hidden">{RECEIPT_TXT.items}</caption>
        <thead>
          <tr>
            <th scope="col">{RECEIPT_TXT.quantity}</th>
            <th scope="col">{RECEIPT_TXT.description}</th>
            <th scope="col" className="num">{RECEIPT_TXT.amount}</th>
          </tr>
        </thead>
        <tbody>
          {r.lines.map((l, i) => (
            <tr key={i}>
              <td className="tabular">{l.quantity}</td>
              <td>{l.description}</td>
              <td className="num tabular">{formatMoney(l.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>{RECEIPT_TXT.subtotal}</th>
            <td className="num tabular">{formatMoney(r.subtotal)}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={2}>{RECEIPT_TXT.tax}</th>
            <td className="num tabular">{formatMoney(r.tax)}</td>
          </tr>
        </tfoot>
      </table>
      <dl className="receipt__facts">
        <dt>{RECEIPT_TXT.rfc}</dt>
        <dd className="tabular">{r.rfc}</dd>
        <dt>{RECEIPT_TXT.folio}</dt>
        <dd className="tabular receipt__folio">{groupFolio(r.folio)}</dd>
        <dt>{RECEIPT_TXT.date}</dt>
        <dd className="tabular">{r.date}</dd>
        <dt>{RECEIPT_TXT.place}</dt>
        <dd className="tabular">{r.place}</dd>
        <dt>{RECEIPT_TXT.payment}</dt>
        <dd>{r.paymentMethod}</dd>
      </dl>
      <img className="receipt__qr" src={`/api/v3/tickets/${r.ref}/qr.svg`} alt={RECEIPT_TXT.qr} width="180" height="180" />
    </article>
  );
}
