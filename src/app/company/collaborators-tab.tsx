// Colaboradores (spec §2 Company): the table (cards on phones), 'Nuevo colaborador' / 'Editar' in the
// off-canvas panel, 'Reenviar invitación' for someone still invited, delete after '¿Estás seguro?', and
// 'Ver datos' of an active collaborator (their profile and tax data: spec §6).
import { useState } from 'react';
import type { Area, Collaborator, CollaboratorStatus, RefundAccountType } from '../../domain/company';
import { MSG } from '../../domain/messages';
import { errorMessage, invalidate, problemOf, useApiQuery } from '../api/query';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Icon } from '../ui/icon';
import { SkeletonCard } from '../ui/skeleton';
import { toast } from '../ui/toast-store';
import { CollaboratorPanel } from './collaborator-panel';
import { CollaboratorProfileDialog } from './collaborator-profile-dialog';
import { companyKeys, deleteCollaborator, getAreas, getCollaborators, getRefundAccountTypes, resendInvitation } from './company-api';

const STATUS_LABEL: Record<CollaboratorStatus, string> = { invitado: 'Invitado', activo: 'Activo', inactivo: 'Inactivo' };
const messageOf = (err: unknown) => errorMessage(err);

interface Loaded {
  collaborators: Collaborator[];
  areas: Area[];
  types: RefundAccountType[];
}

/** The tab's three reads as one: the table needs them all (the areas are the Departamentos tab's). */
function useCollaboratorsData(clientId: number): { data: Loaded | null; problem: Error | null; retry: () => void } {
  const collaborators = useApiQuery(companyKeys.collaborators(clientId), ({ signal }) => getCollaborators(clientId, signal));
  const areas = useApiQuery(companyKeys.areas(clientId), ({ signal }) => getAreas(clientId, signal));
  const types = useApiQuery(companyKeys.refundAccountTypes, ({ signal }) => getRefundAccountTypes(signal));
  const reads = [collaborators, areas, types];
  return {
    data: collaborators.data && areas.data && types.data ? { collaborators: collaborators.data, areas: areas.data, types: types.data } : null,
    problem: reads.map(problemOf).find((p) => p !== null) ?? null,
    retry: () => reads.filter((r) => r.isError).forEach((r) => void r.refetch()),
  };
}

/** The table (cards on phones) with each collaborator's actions. */
function CollaboratorsTable({ data, resending, onResend, onView, onEdit, onDelete }: {
  data: Loaded;
  resending: number | null;
  onResend: (c: Collaborator) => void;
  onView: (c: Collaborator) => void;
  onEdit: (c: Collaborator) => void;
  onDelete: (c: Collaborator) => void;
}) {
  const nameOf = (id: number | null) => {
    const c = id === null ? undefined : data.collaborators.find((x) => x.id === id);
    return c ? `${c.first_name} ${c.last_name}` : '—';
  };
  const typeOf = (id: number | null) => data.types.find((t) => t.id === id)?.account_type ?? '';
  return (
    <div className="card company-table-wrap">
      <table className="company-table">
        <caption className="visually-hidden">Colaboradores de la empresa</caption>
        <thead>
          <tr>
            <th scope="col">Nombre y e-mail</th>
            <th scope="col">Departamento</th>
            <th scope="col">Estado</th>
            <th scope="col">Tarjeta</th>
            <th scope="col">Cuenta para reembolso</th>
            <th scope="col">Autorizador</th>
            <th scope="col">
              <span className="visually-hidden">Acciones</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.collaborators.map((c) => (
            <tr key={c.id}>
              <th scope="row">
                {c.first_name} {c.last_name}
                <small className="company-table__email">{c.email}</small>
              </th>
              <td data-label="Departamento">{c.area ?? '—'}</td>
              <td data-label="Estado">
                <span className="collab-status-cell">
                  <span className={`collab-status collab-status--${c.status}`}>{STATUS_LABEL[c.status]}</span>
                  {c.status === 'invitado' && (
                    <button
                      type="button"
                      className="link-button"
                      aria-label={`Reenviar invitación a ${c.first_name} ${c.last_name}`}
                      disabled={resending === c.id}
                      onClick={() => onResend(c)}
                    >
                      Reenviar
                    </button>
                  )}
                </span>
              </td>
              <td data-label="Tarjeta" className="tabular">
                {c.corporate_card ? `•••• ${c.corporate_card}` : '—'}
              </td>
              <td data-label="Cuenta para reembolso" className="tabular">
                {c.account_for_refunds ? (
                  <span>
                    {c.account_for_refunds}
                    <small className="muted company-table__type">{typeOf(c.account_type_for_refunds_id)}</small>
                  </span>
                ) : (
                  '—'
                )}
              </td>
              <td data-label="Autorizador">{nameOf(c.authorizer_id)}</td>
              <td className="company-table__actions">
                {c.status === 'activo' && (
                  <button type="button" className="link-button" aria-label={`Ver datos de ${c.first_name} ${c.last_name}`} onClick={() => onView(c)}>
                    Ver datos
                  </button>
                )}
                <Button icon aria-label={`Editar a ${c.first_name} ${c.last_name}`} onClick={() => onEdit(c)}>
                  <Icon name="edit" />
                </Button>
                <Button icon variant="danger" aria-label={`Eliminar a ${c.first_name} ${c.last_name}`} onClick={() => onDelete(c)}>
                  <Icon name="close" />
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CollaboratorsTab({ clientId, companyName }: { clientId: number; companyName: string }) {
  const { data, problem, retry } = useCollaboratorsData(clientId);
  const reload = () => void invalidate(companyKeys.collaborators(clientId));
  const [panel, setPanel] = useState<{ open: boolean; editing: Collaborator | null }>({ open: false, editing: null });
  const [deleting, setDeleting] = useState<Collaborator | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [resending, setResending] = useState<number | null>(null);
  const [viewing, setViewing] = useState<Collaborator | null>(null);

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteCollaborator(clientId, deleting.id);
      setDeleting(null);
      reload();
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setDeleteBusy(false);
    }
  }

  async function resend(c: Collaborator) {
    setResending(c.id);
    try {
      await resendInvitation(clientId, c.id, companyName);
      toast.success(MSG.collaboratorInvited);
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setResending(null);
    }
  }

  if (problem) {
    return (
      <div className="notice notice--error" role="alert">
        <p>{messageOf(problem)}</p>
        <Button onClick={retry}>Reintentar</Button>
      </div>
    );
  }
  if (!data) return <SkeletonCard label="Cargando colaboradores…" lines={4} />;

  return (
    <div className="stack company-collabs">
      <div className="row row--between company-toolbar">
        <p className="muted">
          {data.collaborators.length === 1 ? '1 colaborador' : `${data.collaborators.length} colaboradores`}
        </p>
        <Button variant="primary" onClick={() => setPanel({ open: true, editing: null })}>
          <Icon name="plus" /> Nuevo colaborador
        </Button>
      </div>
      {data.collaborators.length === 0 ? (
        <div className="card company-empty">
          <p>Invita a tu primer colaborador: le enviaremos un correo con el enlace para unirse a tu empresa.</p>
        </div>
      ) : (
        <CollaboratorsTable
          data={data}
          resending={resending}
          onResend={(c) => void resend(c)}
          onView={setViewing}
          onEdit={(c) => setPanel({ open: true, editing: c })}
          onDelete={setDeleting}
        />
      )}
      <CollaboratorPanel
        open={panel.open}
        editing={panel.editing}
        clientId={clientId}
        companyName={companyName}
        areas={data.areas}
        types={data.types}
        collaborators={data.collaborators}
        onClose={() => setPanel((p) => ({ ...p, open: false }))}
        onSaved={() => {
          setPanel((p) => ({ ...p, open: false }));
          reload();
        }}
      />
      <CollaboratorProfileDialog clientId={clientId} collaborator={viewing} onClose={() => setViewing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Eliminar colaborador"
        confirmLabel="Eliminar"
        danger
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        <p>{MSG.confirmDelete}</p>
        {deleting && (
          <p className="muted">
            {deleting.first_name} {deleting.last_name} dejará de compartir sus gastos con tu empresa.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
