// The list search box of the dashboard and the annual view: a labelled search input with its icon.
import { TicketIcon } from './ticket-icons';

export function SearchField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  return (
    <div className="toolbar__search field">
      <label className="visually-hidden" htmlFor={id}>
        Buscar
      </label>
      <TicketIcon name="search" />
      <input id={id} className="field__input" type="search" placeholder="Buscar" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
