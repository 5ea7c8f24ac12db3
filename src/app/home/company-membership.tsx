// A collaborator's dashboard says which company they belong to: the company that reads the selected RFC's
// received invoices and reviews its spending, or, on another of their RFCs, which RFC the company sees.
// Nothing for everyone else, and nothing offline (the dashboard works without it).
import type { Collaboration } from '../../domain/company';
import { collaborationDetails, useCollaborations } from '../feature-gates/collaborations';
import { Icon } from '../ui/icon';
import './company-membership.css';

function MembershipLine({ c, rfc }: { c: Collaboration; rfc: string }) {
  const details = collaborationDetails(c);
  return (
    <li>
      <span>
        {c.rfc === rfc ? 'Colaboras con ' : `Con tu RFC ${c.rfc} colaboras con `}
        <strong>{c.company_name}</strong>
        {c.rfc === rfc ? ': ve las facturas que recibes con este RFC y aprueba o rechaza tus gastos.' : '.'}
      </span>
      {details && <span className="membership__details muted">{details}</span>}
    </li>
  );
}

/** Presentational: the list of collaborations, the selected RFC's first. */
export function MembershipCard({ collaborations, rfc }: { collaborations: readonly Collaboration[]; rfc: string }) {
  if (collaborations.length === 0) return null;
  const ordered = [...collaborations].sort((a, b) => Number(b.rfc === rfc) - Number(a.rfc === rfc));
  return (
    <section className="membership" aria-label="Tu empresa">
      <span className="membership__icon" aria-hidden="true">
        <Icon name="building" />
      </span>
      <ul className="membership__list">
        {ordered.map((c) => (
          <MembershipLine key={`${c.company_rfc}-${c.rfc}`} c={c} rfc={rfc} />
        ))}
      </ul>
    </section>
  );
}

export function CompanyMembership({ rfc }: { rfc: string }) {
  const q = useCollaborations();
  return <MembershipCard collaborations={q.data?.collaborations ?? []} rfc={rfc} />;
}
