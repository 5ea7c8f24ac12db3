// The off-canvas 'Nuevo evento' (spec §2, §5): name, dates (start today or later in Mexico City),
// department, collaborator, deposit (numeric, required), notes. The first failing check shows at its
// field; nothing typed is lost on an error, on closing the panel or without a connection (manager
// actions go online only: no outbox), and the draft is cleared only once the event is saved.
import { useId, useState, type FormEvent } from 'react';
import type { PerDiemEventDetail, PerDiemOptions } from '../../domain/company';
import { MSG } from '../../domain/messages';
import { ApiError } from '../../offline/http';
import { useOnline } from '../use-online';
import { Button } from '../ui/button';
import { Select, TextField } from '../ui/fields';
import { OffCanvas } from '../ui/overlay';
import { TextArea } from '../ui/text-area';
import { toast } from '../ui/toast-store';
import { createPerDiemEvent } from './per-diem-api';
import { checkDraft, fieldOf, toBody, withCollaborator, withStart, type PerDiemDraft, type PerDiemField } from './per-diem-form';
import { useFieldProblem } from '../ui/use-field-problem';

export interface PerDiemPanelProps {
  open: boolean;
  clientId: number;
  today: string;
  options: PerDiemOptions;
  draft: PerDiemDraft;
  onDraft: (d: PerDiemDraft) => void;
  onClose: () => void;
  onSaved: (e: PerDiemEventDetail) => void;
}

export function PerDiemPanel({ open, clientId, today, options, draft, onDraft, onClose, onSaved }: PerDiemPanelProps) {
  const formId = `perdiem${useId().replace(/:/g, '')}`;
  const online = useOnline();
  const { problem, clear, err, reg, show } = useFieldProblem<PerDiemField>();
  const [busy, setBusy] = useState(false);

  const set = (change: Partial<PerDiemDraft>) => onDraft({ ...draft, ...change });

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const local = checkDraft(draft, today);
    if (local) return show(local);
    if (!online) return show({ field: null, message: MSG.perDiemOffline });
    clear();
    setBusy(true);
    try {
      const saved = await createPerDiemEvent(clientId, toBody(draft));
      toast.success(MSG.perDiemCreated);
      onSaved(saved);
    } catch (error) {
      if (error instanceof ApiError && error.offline) show({ field: null, message: MSG.perDiemOffline });
      else {
        const message = error instanceof ApiError ? error.message : MSG.generic;
        show({ field: fieldOf(message), message });
      }
    } finally {
      setBusy(false);
    }
  }

  const areaOf = (id: number) => options.collaborators.find((c) => c.id === id)?.area_id ?? null;
  const areaOptions = options.areas.map((a) => ({ value: String(a.id), label: a.area }));
  const collaboratorOptions = options.collaborators.map((c) => ({ value: String(c.id), label: c.name }));

  return (
    <OffCanvas
      open={open}
      onClose={onClose}
      title="Nuevo evento"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={busy}>
            Crear evento
          </Button>
        </>
      }
    >
      <form id={formId} className="stack per-diem-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {(!online || (problem && problem.field === null)) && (
          <div className={`notice ${problem && problem.field === null && problem.message !== MSG.perDiemOffline ? 'notice--error' : 'notice--info'}`} role="status">
            <p>{problem && problem.field === null ? problem.message : MSG.perDiemOffline}</p>
          </div>
        )}
        <TextField
          label="Nombre del evento"
          name="event_name"
          inputRef={reg('event_name')}
          value={draft.event_name}
          onChange={(e) => set({ event_name: e.target.value })}
          error={err('event_name')}
          maxLength={255}
          autoComplete="off"
          data-autofocus
        />
        <div className="per-diem-form__pair">
          <TextField
            label="Fecha de inicio"
            type="date"
            name="start_date"
            min={today}
            inputRef={reg('start_date')}
            value={draft.start_date}
            onChange={(e) => onDraft(withStart(draft, e.target.value))}
            error={err('start_date')}
          />
          <TextField
            label="Fecha de fin"
            type="date"
            name="end_date"
            min={draft.start_date || today}
            inputRef={reg('end_date')}
            value={draft.end_date}
            onChange={(e) => set({ end_date: e.target.value })}
            error={err('end_date')}
          />
        </div>
        <Select
          label="Departamento"
          name="area_id"
          selectRef={reg('area_id')}
          value={draft.area_id}
          onChange={(e) => set({ area_id: e.target.value })}
          options={areaOptions}
          placeholder="Todos los departamentos"
          error={err('area_id')}
        />
        <Select
          label="Colaborador"
          name="collaborator_id"
          selectRef={reg('collaborator_id')}
          value={draft.collaborator_id}
          onChange={(e) => onDraft(withCollaborator(draft, e.target.value, areaOf))}
          options={collaboratorOptions}
          placeholder="Todos los colaboradores"
          error={err('collaborator_id')}
          hint="Cuentan los gastos de este colaborador (o los de su departamento) entre las fechas del evento."
        />
        <TextField
          label="Depósito"
          name="deposit"
          inputMode="decimal"
          inputRef={reg('deposit')}
          value={draft.deposit}
          onChange={(e) => set({ deposit: e.target.value })}
          error={err('deposit')}
          autoComplete="off"
          className="per-diem-form__deposit"
          hint="En pesos mexicanos (MXN)."
          maxLength={20}
        />
        <TextArea label="Notas" name="notes" value={draft.notes} onChange={(e) => set({ notes: e.target.value })} maxLength={2000} rows={3} />
      </form>
    </OffCanvas>
  );
}
