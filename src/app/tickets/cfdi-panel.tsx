// The CFDI view of a ticket (DESIGN §5): what the CFDI is and what it means in the books — a credit
// note's related invoices, what a payment complement paid, a payroll's period and net pay, a PPD invoice's
// payment state, both seal checks, SAT's rule findings, and this CFDI's and the replaced one's states. A
// panel from the right on desktop and from the bottom on phones, over the month or year list. The words come
// from src/domain/cfdi-label.ts, the same the row's badge uses.
import type { ReactNode } from 'react';
import type { CfdiView } from '../../domain/cfdi-label';
import { OffCanvas } from '../ui/overlay';
import './cfdi-panel.css';

export const CFDI_PANEL_TXT = {
  title: (kind: string, origin: string) => `${kind} de ${origin}`,
  findings: 'Observaciones del SAT',
  uuids: 'Folio fiscal',
  related: 'CFDI relacionados',
  pays: 'Facturas que paga',
  paid: 'Pagado',
  balance: 'Saldo',
  installment: 'Parcialidad',
  seals: 'Sellos',
} as const;

/** A titled part of the panel, named by its heading for screen readers. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="cfdi__section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

export function CfdiDetails({ view }: { view: CfdiView }) {
  return (
    <div className="cfdi stack">
      {view.alarm && (
        <p className="notice notice--error cfdi__alarm" role="alert">
          {view.alarm}
        </p>
      )}
      {view.findingsTitle && (
        <section className="notice notice--warning cfdi__findings" aria-label={CFDI_PANEL_TXT.findings}>
          <p className="cfdi__findings-title">{view.findingsTitle}</p>
          <ul>
            {view.findings.map((f, i) => (
              <li key={`${f.code}-${i}`}>
                {f.code && <span className="cfdi__code tabular">{f.code}</span>} {f.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      <dl className="cfdi__facts">
        {view.facts.map((f) => (
          <div key={f.label} className="cfdi__fact">
            <dt>{f.label}</dt>
            <dd className="tabular">{f.value}</dd>
          </div>
        ))}
      </dl>
      {view.uuids.length > 0 && (
        <Section id="cfdi-uuids" title={CFDI_PANEL_TXT.uuids}>
          <ul className="cfdi__uuids">
            {view.uuids.map((u) => (
              <li key={`${u.label}-${u.uuid}`}>
                <span className="cfdi__uuid-label">{u.label}</span>
                <code className="cfdi__uuid">{u.uuid}</code>
                <span className={`cfdi__state cfdi__state--${u.state.replace(' ', '-')}`}>{u.state}</span>
              </li>
            ))}
          </ul>
        </Section>
      )}
      {view.related.length > 0 && (
        <Section id="cfdi-related" title={CFDI_PANEL_TXT.related}>
          {view.related.map((g, i) => (
            <div key={i} className="cfdi__related">
              <p className="muted">{g.label}</p>
              <ul className="cfdi__uuids">
                {g.uuids.map((u) => (
                  <li key={u}>
                    <code className="cfdi__uuid">{u}</code>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </Section>
      )}
      {view.pays.length > 0 && (
        <Section id="cfdi-pays" title={CFDI_PANEL_TXT.pays}>
          <ul className="cfdi__pays">
            {view.pays.map((p, i) => (
              <li key={`${p.uuid}-${i}`}>
                <code className="cfdi__uuid">{p.uuid}</code>
                <span className="cfdi__pay-line tabular">
                  {CFDI_PANEL_TXT.paid} {p.amount}
                  {p.installment !== null && ` · ${CFDI_PANEL_TXT.installment} ${p.installment}`}
                  {p.balance !== null && ` · ${CFDI_PANEL_TXT.balance} ${p.balance}`}
                </span>
              </li>
            ))}
          </ul>
        </Section>
      )}
      {view.seals.length > 0 && (
        <Section id="cfdi-seals" title={CFDI_PANEL_TXT.seals}>
          <ul className="cfdi__seals">
            {view.seals.map((s) => (
              <li key={s.text} className={`cfdi__seal cfdi__seal--${s.tone}`}>
                {s.text}
              </li>
            ))}
          </ul>
        </Section>
      )}
    </div>
  );
}

export function CfdiPanel({ open, onClose, view, origin }: { open: boolean; onClose: () => void; view: CfdiView | null; origin: string }) {
  return (
    <OffCanvas open={open && view !== null} onClose={onClose} title={view ? CFDI_PANEL_TXT.title(view.title, origin) : ''}>
      {view && <CfdiDetails view={view} />}
    </OffCanvas>
  );
}
