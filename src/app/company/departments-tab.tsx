// Departamentos (spec §2, §5): add (normalised by the server's rule, empty ignored, duplicate → the
// spec's warning), list, delete after '¿Estás seguro?'.
import { useState, type FormEvent } from 'react';
import type { Area } from '../../domain/company';
import { MSG } from '../../domain/messages';
import { normalizeDepartment } from '../../domain/company';
import { errorMessage, problemOf, setQueryData, useApiQuery } from '../api/query';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TextField } from '../ui/fields';
import { Icon } from '../ui/icon';
import { SkeletonCard } from '../ui/skeleton';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { addArea, companyKeys, deleteArea, getAreas } from './company-api';

const messageOf = (err: unknown) => errorMessage(err);

export function DepartmentsTab({ clientId }: { clientId: number }) {
  const areasRead = useApiQuery(companyKeys.areas(clientId), ({ signal }) => getAreas(clientId, signal));
  const problem = problemOf(areasRead);
  // Every write answers with the whole list: it replaces the cached one.
  const setAreas = (list: Area[]) => setQueryData(companyKeys.areas(clientId), list);
  const [name, setName] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<Area | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  // Toasts of this tab close when it goes away (a stale warning must not cover the other tab).
  const notes = useScreenToasts();

  async function onAdd(e: FormEvent) {
    e.preventDefault();
    setFieldError(null);
    notes.dismissAll();
    if (!normalizeDepartment(name)) {
      setName(''); // empty is ignored (spec §5)
      return;
    }
    setBusy(true);
    try {
      setAreas(await addArea(clientId, name));
      setName('');
    } catch (err) {
      const message = messageOf(err);
      // A duplicate is the spec's warning (nothing was added), not a field error.
      if (message === MSG.duplicatesSkipped) notes.warning(message);
      else {
        setFieldError(message);
        notes.error(message);
      }
    } finally {
      setBusy(false);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      setAreas(await deleteArea(clientId, deleting.id));
      setDeleting(null);
    } catch (err) {
      notes.error(messageOf(err));
    } finally {
      setDeleteBusy(false);
    }
  }

  return (
    <div className="stack company-areas">
      <form className="card company-areas__form" onSubmit={(e) => void onAdd(e)} noValidate>
        <TextField
          label="Nuevo departamento"
          name="area"
          value={name}
          maxLength={120}
          onChange={(e) => setName(e.target.value)}
          error={fieldError}
          autoComplete="off"
        />
        <Button type="submit" variant="primary" loading={busy}>
          <Icon name="plus" /> Agregar
        </Button>
      </form>
      {problem ? (
        <div className="notice notice--error" role="alert">
          <p>{messageOf(problem)}</p>
          <Button onClick={() => void areasRead.refetch()}>Reintentar</Button>
        </div>
      ) : !areasRead.data ? (
        <SkeletonCard label="Cargando departamentos…" lines={3} />
      ) : areasRead.data.length === 0 ? (
        <div className="card company-empty">
          <p>Aún no tienes departamentos. Agrega el primero para asignarlo a tus colaboradores.</p>
        </div>
      ) : (
        <ul className="card company-areas__list" aria-label="Departamentos">
          {areasRead.data.map((a) => (
            <li key={a.id} className="company-areas__item">
              <span>{a.area}</span>
              <Button variant="secondary" icon aria-label={`Eliminar ${a.area}`} onClick={() => setDeleting(a)}>
                <Icon name="close" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Eliminar departamento"
        confirmLabel="Eliminar"
        danger
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        <p>{MSG.confirmDelete}</p>
        {deleting && <p className="muted">Sus colaboradores quedarán sin departamento: {deleting.area}.</p>}
      </ConfirmDialog>
    </div>
  );
}
