// The off-canvas 'Nuevo colaborador' / 'Editar' (spec §2, §5): every field, the refund account grouped
// by its type as the user types, the first failing check shown at its field in the spec's order; a
// duplicate e-mail is a warning, not an error.
import { useId, useState, type FormEvent } from 'react';
import type { Area, Collaborator, RefundAccountType } from '../../domain/company';
import { MSG } from '../../domain/messages';
import { ApiError } from '../../offline/http';
import { Button } from '../ui/button';
import { Select, TextField } from '../ui/fields';
import { OffCanvas } from '../ui/overlay';
import { TextArea } from '../ui/text-area';
import { toast } from '../ui/toast-store';
import {
  checkDraft,
  draftOf,
  editBody,
  EMPTY_COLLABORATOR,
  fieldOf,
  toInput,
  typedCorporateCard,
  typedRefundAccount,
  type CollaboratorDraft,
  type CollaboratorField,
} from './collaborator-form';
import { inviteCollaborator, updateCollaborator } from './company-api';
import { useFieldProblem } from '../ui/use-field-problem';

export interface CollaboratorPanelProps {
  open: boolean;
  /** null = 'Nuevo colaborador'. */
  editing: Collaborator | null;
  clientId: number;
  companyName: string;
  areas: Area[];
  types: RefundAccountType[];
  collaborators: Collaborator[];
  onClose: () => void;
  onSaved: (c: Collaborator) => void;
}

const REFUND_HINT: Record<string, string> = {
  '': '18 dígitos de la CLABE interbancaria.',
  '1': '18 dígitos de la CLABE interbancaria.',
  '2': 'El número de la tarjeta para reembolsos.',
  '3': 'Celular de 10 dígitos.',
};

/** The panel's fields in the spec's order. */
function CollaboratorFields({ draft, set, err, reg, editing, areas, types, collaborators, emailText, onEmailText }: {
  draft: CollaboratorDraft;
  set: (change: Partial<CollaboratorDraft>) => void;
  err: (field: CollaboratorField) => string | null;
  reg: ReturnType<typeof useFieldProblem<CollaboratorField>>['reg'];
  editing: Collaborator | null;
  areas: Area[];
  types: RefundAccountType[];
  collaborators: Collaborator[];
  emailText: string;
  onEmailText: (text: string) => void;
}) {
  const areaOptions = areas.map((a) => ({ value: String(a.id), label: a.area }));
  const typeOptions = types.map((t) => ({ value: String(t.id), label: t.account_type }));
  const authorizerOptions = collaborators
    .filter((c) => c.id !== editing?.id)
    .map((c) => ({ value: String(c.id), label: `${c.first_name} ${c.last_name}` }));

  return (
    <>
      <TextField
        label="E-mail"
        type="email"
        name="email"
        inputRef={reg('email')}
        value={draft.email}
        onChange={(e) => set({ email: e.target.value })}
        error={err('email')}
        disabled={Boolean(editing)}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={254}
        data-autofocus
      />
      <div className="collab-form__pair">
        <TextField label="Nombre" name="first_name" inputRef={reg('first_name')} value={draft.first_name} onChange={(e) => set({ first_name: e.target.value })} error={err('first_name')} maxLength={255} autoComplete="off" />
        <TextField label="Apellido" name="last_name" inputRef={reg('last_name')} value={draft.last_name} onChange={(e) => set({ last_name: e.target.value })} error={err('last_name')} maxLength={255} autoComplete="off" />
      </div>
      <Select
        label="Departamento"
        name="area_id"
        selectRef={reg('area_id')}
        value={draft.area_id}
        onChange={(e) => set({ area_id: e.target.value })}
        options={areaOptions}
        placeholder="Elige un departamento"
        error={err('area_id')}
        hint={areas.length === 0 ? 'Primero agrega un departamento en la pestaña Departamentos.' : undefined}
      />
      <TextField
        label="Tarjeta corporativa (últimos 4 dígitos)"
        name="corporate_card"
        inputMode="numeric"
        inputRef={reg('corporate_card')}
        value={draft.corporate_card}
        onChange={(e) => set({ corporate_card: typedCorporateCard(e.target.value) })}
        error={err('corporate_card')}
        autoComplete="off"
        className="collab-form__card"
      />
      <Select
        label="Tipo de cuenta para reembolso"
        name="account_type_for_refunds_id"
        selectRef={reg('account_type_for_refunds_id')}
        value={draft.account_type_for_refunds_id}
        onChange={(e) => set({ account_type_for_refunds_id: e.target.value, account_for_refunds: typedRefundAccount(e.target.value, draft.account_for_refunds) })}
        options={typeOptions}
        placeholder="Elige el tipo de cuenta"
        error={err('account_type_for_refunds_id')}
      />
      <TextField
        label="Cuenta para reembolso"
        name="account_for_refunds"
        inputMode="numeric"
        inputRef={reg('account_for_refunds')}
        value={draft.account_for_refunds}
        onChange={(e) => set({ account_for_refunds: typedRefundAccount(draft.account_type_for_refunds_id, e.target.value) })}
        error={err('account_for_refunds')}
        hint={REFUND_HINT[draft.account_type_for_refunds_id] ?? REFUND_HINT['']}
        autoComplete="off"
        className="tabular"
      />
      <Select
        label="Autorizador"
        name="authorizer_id"
        selectRef={reg('authorizer_id')}
        value={draft.authorizer_id}
        onChange={(e) => set({ authorizer_id: e.target.value })}
        options={authorizerOptions}
        placeholder="Sin autorizador"
        error={err('authorizer_id')}
      />
      {!editing && (
        <TextArea
          label="Mensaje de la invitación"
          name="email_text"
          value={emailText}
          onChange={(e) => onEmailText(e.target.value)}
          maxLength={2000}
          rows={3}
          hint="Lo incluimos en el correo junto con el enlace para unirse."
        />
      )}
    </>
  );
}

export function CollaboratorPanel({ open, editing, clientId, companyName, areas, types, collaborators, onClose, onSaved }: CollaboratorPanelProps) {
  const formId = `collab${useId().replace(/:/g, '')}`;
  const mode = editing ? 'edit' : 'new';
  const [draft, setDraft] = useState<CollaboratorDraft>(EMPTY_COLLABORATOR);
  const [emailText, setEmailText] = useState('');
  const { clear, err, reg, show } = useFieldProblem<CollaboratorField>();
  const [busy, setBusy] = useState(false);

  // Forms reset when the panel opens (spec §4 'Panels'), or opens on someone else.
  const [shownFor, setShownFor] = useState<{ open: boolean; editing: Collaborator | null }>({ open: false, editing: null });
  if (shownFor.open !== open || shownFor.editing !== editing) {
    setShownFor({ open, editing });
    if (open) {
      setDraft(editing ? draftOf(editing) : EMPTY_COLLABORATOR);
      setEmailText('');
      clear();
      setBusy(false);
    }
  }

  const set = (change: Partial<CollaboratorDraft>) => setDraft((d) => ({ ...d, ...change }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const local = checkDraft(draft, mode);
    if (local) return show(local);
    clear();
    setBusy(true);
    try {
      const saved = editing
        ? await updateCollaborator(clientId, editing.id, editBody(draft))
        : await inviteCollaborator(clientId, toInput(draft), emailText, companyName);
      toast.success(editing ? MSG.infoUpdated : MSG.collaboratorInvited);
      onSaved(saved);
    } catch (err) {
      const message = err instanceof ApiError ? err.message : MSG.generic;
      show({ field: fieldOf(message), message });
      if (message === MSG.duplicatesSkipped) toast.warning(message);
      else if (!fieldOf(message)) toast.error(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <OffCanvas
      open={open}
      onClose={onClose}
      title={editing ? 'Editar' : 'Nuevo colaborador'}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={busy}>
            {editing ? 'Guardar' : 'Enviar invitación'}
          </Button>
        </>
      }
    >
      <form id={formId} className="stack collab-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <CollaboratorFields
          draft={draft}
          set={set}
          err={err}
          reg={reg}
          editing={editing}
          areas={areas}
          types={types}
          collaborators={collaborators}
          emailText={emailText}
          onEmailText={setEmailText}
        />
      </form>
    </OffCanvas>
  );
}
