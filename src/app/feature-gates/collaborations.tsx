// Which companies the signed-in user works for as a collaborator (GET /api/v3/collaborations.json, an
// online-only read): the dashboard says it, and the Empresa screens explain it to a collaborator instead of
// offering them a plan their company already pays for.
import { useId, type ReactNode } from 'react';
import type { Collaboration } from '../../domain/company';
import { api } from '../api/client';
import { useApiQuery } from '../api/query';
import { RFC_COMPANY_LENGTH } from '../../domain/rfc';
import { buttonClass } from '../ui/button';
import { Icon } from '../ui/icon';
import { SkeletonCard } from '../ui/skeleton';
import './feature-gates.css';

export function useCollaborations() {
  // The query layer's usual freshness: an invitation accepted a minute ago shows on the next visit.
  return useApiQuery(['collaborations'], ({ signal }) => api.get<{ collaborations: Collaboration[] }>('/api/v3/collaborations.json', undefined, signal));
}

/** 'Departamento: Ventas · Autoriza tus gastos: Ana López', or '' when the company named neither. */
export function collaborationDetails(c: Collaboration): string {
  return [c.area && `Departamento: ${c.area}`, c.authorizer && `Autoriza tus gastos: ${c.authorizer}`].filter(Boolean).join(' · ');
}

/** What an Empresa screen says to a collaborator: whose screens these are, and what their company sees. */
export function CollaboratorNotice({ collaborations }: { collaborations: readonly Collaboration[] }) {
  const titleId = useId();
  const [first] = collaborations;
  if (!first) return null;
  const many = collaborations.length > 1;
  return (
    <section className="card stack company-notice" aria-labelledby={titleId}>
      <div className="company-notice__badge" aria-hidden="true">
        <Icon name="building" />
      </div>
      <h2 id={titleId}>{many ? 'Eres colaborador de varias empresas' : `Eres colaborador de ${first.company_name}`}</h2>
      <p>
        Los colaboradores, los gastos por colaborador y los viáticos los administra tu empresa desde su propia cuenta. Tú registras tus gastos
        como siempre: la empresa ve las facturas que recibes con el RFC que compartiste y las aprueba o rechaza.
      </p>
      <ul>
        {collaborations.map((c) => (
          <li key={`${c.company_rfc}-${c.rfc}`}>
            <strong>{c.company_name}</strong> ve tu RFC <span className="tabular">{c.rfc}</span>
            {collaborationDetails(c) && <span className="muted"> · {collaborationDetails(c)}</span>}
          </li>
        ))}
      </ul>
      <p className="muted">En tu Dashboard verás si cada gasto fue aprobado o rechazado, y el motivo de un rechazo.</p>
      <div>
        <a href="/#/" className={buttonClass()}>
          Ir a mi Dashboard
        </a>
      </div>
    </section>
  );
}

/**
 * `fallback` (the notice or the plan advert) for everyone but a collaborator on the RFC they share, or on a
 * persona física's RFC: the notice above. A company's own RFC keeps its advert (its plan is its to change).
 */
export function CollaboratorOr({ rfc, fallback }: { rfc: string; fallback: ReactNode }) {
  const q = useCollaborations();
  if (q.isPending) return <SkeletonCard label="Cargando…" lines={3} />;
  const mine = q.data?.collaborations ?? [];
  const applies = mine.length > 0 && (rfc.length !== RFC_COMPANY_LENGTH || mine.some((c) => c.rfc === rfc));
  return applies ? <CollaboratorNotice collaborations={mine} /> : <>{fallback}</>;
}
