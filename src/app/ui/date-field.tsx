// A yyyy/mm/dd text field with a small Spanish calendar (spec §5, §9): typing always works, the
// calendar is a shortcut; future days are disabled and it closes on pick.
import { useEffect, useEffectEvent, useId, useRef, useState, type Ref, type RefObject } from 'react';
import { mexicoCityDate } from '../../domain/mexico-time';
import { Icon } from './icon';
import { TicketIcon } from './ticket-icons';
import { calendarTitle, formatYmd, monthGrid, parseYmd, stepMonth, WEEKDAYS, type Ymd } from './calendar-model';
import { TextField } from './fields';
import './calendar.css';

export interface DateFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
  now?: Date;
}

/**
 * While the calendar is open: the selected (or today's) day takes the focus, and a press outside or
 * Escape closes it (Escape hands the focus back to the calendar button).
 */
function useOpenCalendar(open: boolean, onClose: () => void, wrapRef: RefObject<HTMLDivElement | null>, toggleRef: RefObject<HTMLButtonElement | null>) {
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (!open) return;
    // Focus the selected (or today's) day so the keyboard starts there.
    requestAnimationFrame(() => wrapRef.current?.querySelector<HTMLButtonElement>('[data-current="true"]')?.focus());
    function onDown(e: MouseEvent) {
      if (wrapRef.current && !wrapRef.current.contains(e.target as Node)) close();
    }
    function onKey(e: KeyboardEvent) {
      if (e.key === 'Escape') {
        // Window capture runs before the panel's trap (document capture): Escape closes only the calendar.
        e.stopPropagation();
        close();
        toggleRef.current?.focus();
      }
    }
    document.addEventListener('mousedown', onDown);
    window.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('mousedown', onDown);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [open, wrapRef, toggleRef]);
}

export function DateField({ label, value, onChange, error, inputRef, now }: DateFieldProps) {
  const [open, setOpen] = useState(false);
  const today: Ymd = mexicoCityDate(now);
  const selected = parseYmd(value);
  const [view, setView] = useState(() => ({ year: (selected ?? today).year, month: (selected ?? today).month }));
  const wrapRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const gridId = useId();

  useOpenCalendar(open, () => setOpen(false), wrapRef, toggleRef);

  // Only an open calendar needs its month's days (31 labels to build): the forms render this field
  // on every keystroke and when their fields arrive, with the calendar closed.
  const weeks = open ? monthGrid(view.year, view.month, today, selected) : [];
  const atLatest = view.year === today.year && view.month === today.month;
  const current = selected && selected.year === view.year && selected.month === view.month ? selected.day : atLatest ? today.day : 1;

  // The calendar opens on the typed (or today's) month; later typing must not move it under the user's finger.
  function toggle() {
    if (!open) {
      const base = selected ?? today;
      setView({ year: base.year, month: base.month });
    }
    setOpen(!open);
  }

  function pick(d: Ymd) {
    onChange(formatYmd(d));
    setOpen(false);
    toggleRef.current?.focus();
  }

  return (
    <div className="date-field" ref={wrapRef}>
      <TextField
        label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="aaaa/mm/dd"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
        error={error}
        inputRef={inputRef}
        trailing={
          <button
            ref={toggleRef}
            type="button"
            className="btn btn--ghost btn--icon"
            aria-label="Elegir fecha en el calendario"
            aria-expanded={open}
            aria-controls={gridId}
            onClick={toggle}
          >
            <TicketIcon name="calendar" />
          </button>
        }
      />
      {open && (
        <Calendar id={gridId} view={view} onView={setView} weeks={weeks} current={current} atLatest={atLatest} onPick={pick} />
      )}
    </div>
  );
}

/** The month grid under the field: previous and next month, the weekdays, and a button per day. */
function Calendar({ id, view, onView, weeks, current, atLatest, onPick }: {
  id: string;
  view: { year: number; month: number };
  onView: (view: { year: number; month: number }) => void;
  weeks: ReturnType<typeof monthGrid>;
  /** The day that takes the focus when the calendar opens. */
  current: number;
  atLatest: boolean;
  onPick: (day: Ymd) => void;
}) {
  return (
    <div className="calendar" id={id} role="group" aria-label="Calendario">
      <div className="calendar__head">
        <button type="button" className="btn btn--ghost btn--icon" aria-label="Mes anterior" onClick={() => onView(stepMonth(view.year, view.month, -1))}>
          <Icon name="chevronLeft" />
        </button>
        <strong aria-live="polite">{calendarTitle(view.year, view.month)}</strong>
        <button
          type="button"
          className="btn btn--ghost btn--icon"
          aria-label="Mes siguiente"
          disabled={atLatest}
          onClick={() => onView(stepMonth(view.year, view.month, 1))}
        >
          <Icon name="chevronRight" />
        </button>
      </div>
      <table className="calendar__grid">
        <thead>
          <tr>
            {WEEKDAYS.map((w) => (
              <th key={w.short} scope="col">
                <abbr title={w.long}>{w.short}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, i) => (
            <tr key={i}>
              {week.map((d, j) => (
                <td key={j}>
                  {d && (
                    <button
                      type="button"
                      className={`calendar__day${d.selected ? ' calendar__day--selected' : ''}${d.today ? ' calendar__day--today' : ''}`}
                      aria-label={d.label}
                      aria-pressed={d.selected}
                      disabled={d.disabled}
                      data-current={d.day === current ? 'true' : undefined}
                      onClick={() => onPick(d)}
                    >
                      {d.day}
                    </button>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
