// 'Ver datos' of an active collaborator (spec §6): a modal with their profile and the tax data of the RFC
// they accepted the invitation with, read from the server when it opens. Never passwords (the server does
// not send them); their received invoices are downloaded from the company's 'Gastos' view.
import { useState } from 'react';
import type { Collaborator } from '../../domain/company';
import type { OAuthProfile } from '../../domain/oauth';
import { errorMessage, problemOf, useApiQuery } from '../api/query';
import { Button } from '../ui/button';
import { Modal } from '../ui/overlay';
import { SkeletonCard } from '../ui/skeleton';
import { companyKeys, getCollaboratorProfile } from './company-api';
import { profileFacts } from './collaborator-profile-model';

/** The facts as a definition list (also what the app test renders). */
export function ProfileFacts({ profile }: { profile: OAuthProfile }) {
  return (
    <dl className="collab-profile">
      {profileFacts(profile).map((f) => (
        <div key={f.label} className="collab-profile__row">
          <dt className="muted">{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function CollaboratorProfileDialog({ clientId, collaborator, onClose }: { clientId: number; collaborator: Collaborator | null; onClose: () => void }) {
  // The last one opened: while the dialog fades out after closing, it keeps showing their data.
  const [id, setId] = useState(collaborator?.id ?? null);
  if (collaborator && collaborator.id !== id) setId(collaborator.id);
  const profile = useApiQuery(companyKeys.profile(clientId, id), ({ signal }) => getCollaboratorProfile(clientId, id ?? 0, signal), { enabled: id !== null });
  const problem = problemOf(profile);

  return (
    <Modal
      open={collaborator !== null}
      onClose={onClose}
      title={collaborator ? `Datos de ${collaborator.first_name} ${collaborator.last_name}` : 'Datos del colaborador'}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Cerrar
        </Button>
      }
    >
      {!problem && !profile.data && <SkeletonCard label="Cargando datos del colaborador…" lines={5} />}
      {problem && (
        <p className="notice notice--error" role="alert">
          {errorMessage(problem)}
        </p>
      )}
      {profile.data && (
        <>
          <ProfileFacts profile={profile.data} />
          <p className="muted">Sus facturas recibidas se descargan desde Gastos.</p>
        </>
      )}
    </Modal>
  );
}
