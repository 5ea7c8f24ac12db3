// 'Ver datos' of an active collaborator (spec §6): a modal with their profile and the tax data of the RFC
// they accepted the invitation with, read from the server when it opens. Never passwords (the server does
// not send them); their received invoices are downloaded from the company's 'Gastos' view.
import { useEffect, useState } from 'react';
import type { Collaborator } from '../../domain/company';
import { MSG } from '../../domain/messages';
import type { OAuthProfile } from '../../domain/oauth';
import { ApiError } from '../../offline/http';
import { Button } from '../ui/button';
import { Modal } from '../ui/overlay';
import { SkeletonCard } from '../ui/skeleton';
import { getCollaboratorProfile } from './company-api';
import { profileFacts } from './collaborator-profile-model';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; profile: OAuthProfile };

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
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const id = collaborator?.id ?? null;
  useEffect(() => {
    if (id === null) return;
    let live = true;
    setLoad({ state: 'loading' });
    getCollaboratorProfile(clientId, id).then(
      (profile) => live && setLoad({ state: 'done', profile }),
      (err: unknown) => live && setLoad({ state: 'error', message: err instanceof ApiError ? err.message : MSG.generic }),
    );
    return () => {
      live = false;
    };
  }, [clientId, id]);

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
      {load.state === 'loading' && <SkeletonCard label="Cargando datos del colaborador…" lines={5} />}
      {load.state === 'error' && (
        <p className="notice notice--error" role="alert">
          {load.message}
        </p>
      )}
      {load.state === 'done' && (
        <>
          <ProfileFacts profile={load.profile} />
          <p className="muted">Sus facturas recibidas se descargan desde Gastos.</p>
        </>
      )}
    </Modal>
  );
}
