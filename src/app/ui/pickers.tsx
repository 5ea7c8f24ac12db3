// Month-and-year picker (enero..diciembre, current year back to 2013) and the year-only picker
// of the annual view (spec §2 Layout). Native selects: they work well on phones and with readers.
import { MONTH_NAMES, capitalize, pickerYears, FIRST_YEAR } from '../../domain/dates';
import { mexicoCityDate } from '../../domain/mexico-time';
import { Icon } from './icon';
import './button.css';
import './field.css';
import './picker.css';

export interface Period {
  year: number;
  month: number;
}

/** The month before or after, clamped to the picker's range (2013 .. the current month). */
export function stepPeriod(p: Period, delta: -1 | 1, now: Date = new Date()): Period {
  const index = p.year * 12 + (p.month - 1) + delta;
  const { year, month } = mexicoCityDate(now);
  const max = year * 12 + (month - 1);
  const min = FIRST_YEAR * 12;
  const clamped = Math.min(max, Math.max(min, index));
  return { year: Math.floor(clamped / 12), month: (clamped % 12) + 1 };
}

export function MonthYearPicker({ value, onChange, now }: { value: Period; onChange: (p: Period) => void; now?: Date }) {
  const years = pickerYears(now);
  const prev = stepPeriod(value, -1, now);
  const next = stepPeriod(value, 1, now);
  const atStart = prev.year === value.year && prev.month === value.month;
  const atEnd = next.year === value.year && next.month === value.month;
  return (
    <div className="picker" role="group" aria-label="Mes y año">
      <button type="button" className="btn btn--ghost picker__step" aria-label="Mes anterior" disabled={atStart} onClick={() => onChange(prev)}>
        <Icon name="chevronLeft" />
      </button>
      <label className="visually-hidden" htmlFor="picker-month">
        Mes
      </label>
      <select
        id="picker-month"
        className="field__input"
        value={value.month}
        onChange={(e) => onChange({ year: value.year, month: Number(e.target.value) })}
      >
        {MONTH_NAMES.map((m, i) => (
          <option key={m} value={i + 1}>
            {capitalize(m)}
          </option>
        ))}
      </select>
      <label className="visually-hidden" htmlFor="picker-year">
        Año
      </label>
      <select
        id="picker-year"
        className="field__input"
        value={value.year}
        onChange={(e) => onChange({ year: Number(e.target.value), month: value.month })}
      >
        {years.map((y) => (
          <option key={y} value={y}>
            {y}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn--ghost picker__step" aria-label="Mes siguiente" disabled={atEnd} onClick={() => onChange(next)}>
        <Icon name="chevronRight" />
      </button>
    </div>
  );
}

export function YearPicker({ value, onChange, now }: { value: number; onChange: (year: number) => void; now?: Date }) {
  const years = pickerYears(now);
  const newest = years[0] ?? value;
  return (
    <div className="picker" role="group" aria-label="Año">
      <button type="button" className="btn btn--ghost picker__step" aria-label="Año anterior" disabled={value <= FIRST_YEAR} onClick={() => onChange(value - 1)}>
        <Icon name="chevronLeft" />
      </button>
      <label className="visually-hidden" htmlFor="picker-year-only">
        Año
      </label>
      <select id="picker-year-only" className="field__input" value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {years.map((y) => (
          <option key={y} value={y}>
            {y}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn--ghost picker__step" aria-label="Año siguiente" disabled={value >= newest} onClick={() => onChange(value + 1)}>
        <Icon name="chevronRight" />
      </button>
    </div>
  );
}
