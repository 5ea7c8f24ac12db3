// The expense report CSV (spec §9): file names and the spec's columns exactly as it lists them, first and
// in order, then ours: `tipo` (what kind of spending the row is) and, in the company report, who spent it
// and the manager's decision. It is a spending report: income is left out (and counted, so the user is
// told), credit notes carry a negative monto, and documents that move no money (payment complements,
// traslados, cancelled CFDI) are left out and counted too; a CFDI whose seal failed says so in `tipo`.
// Cells that a spreadsheet would run as a formula are neutralised (CSV injection); totals are exact cents.
import type { Ticket } from './ticket';
import { categoryOf, isIncome, MANUAL_COMPANY_SHORT_NAME } from './ticket';
import { UNCATEGORIZED_LABEL } from './categories';
import { reviewOf } from './company-view';
import { formatCents } from './decimal';
import { formatMoney } from './money';
import { countsNoMoney, reportCents } from './report-amounts';

/** The spec's columns (§9), verbatim and in order: they stay first in every report. */
export const CSV_COLUMNS = [
  'rfcEmisor', 'nombreComercialEmisor', 'razonSocialEmisor', 'rfcReceptor', 'fechaEmision', 'monto', 'categoria', 'nota',
  'uuid', 'impuestosTrasladados', 'impuestosRetenidos', 'metodoDePago', 'numeroDeCuenta',
] as const;
/** The personal report: the spec's columns, then the row's kind. */
export const REPORT_COLUMNS = [...CSV_COLUMNS, 'tipo'] as const;
/** The company report: the personal one's, then the collaborator, their department and the review. */
export const COMPANY_REPORT_COLUMNS = [...REPORT_COLUMNS, 'colaborador', 'departamento', 'estado', 'motivoDeRechazo'] as const;

export type CsvRow = Record<(typeof REPORT_COLUMNS)[number], string>;
export type CompanyCsvRow = Record<(typeof COMPANY_REPORT_COLUMNS)[number], string>;

/** Excel opens UTF-8 with accents correctly only with a byte-order mark. */
export const UTF8_BOM = '\uFEFF';

export function personalReportName(year: number): string {
  return `reporte-gastos-${year}.csv`;
}

export function companyReportName(month: number, year: number): string {
  return `reporte-gastos-${month}-${year}.csv`;
}

/** A cell starting with = + - @ (or a tab/CR) would be a formula: prefix it with an apostrophe. */
export function neutralizeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Cells that are numbers we wrote ourselves: a credit note's "-120.00" must stay a number in the sheet. */
const NUMERIC = /^-?\d+\.\d{2}$/;
const neutralize = (column: string, value: string) => (column === 'monto' && NUMERIC.test(value) ? value : neutralizeCell(value));

/** The `tipo` column's words. */
export const REPORT_KIND = {
  invoice: 'Factura',
  creditNote: 'Nota de crédito',
  payroll: 'Nómina',
  manual: 'Gasto manual',
  ticket: 'Ticket sin factura',
} as const;
export type ReportKind = (typeof REPORT_KIND)[keyof typeof REPORT_KIND];

/** Why a selected ticket is not in a spending report. */
export type Omission = 'income' | 'noMoney';

/** The row's kind in a spending report, or why it is left out. */
export function spendingKind(t: Pick<Ticket, 'ticket_type_id' | 'receipt' | 'company_short_name'>): { kind: ReportKind } | { omit: Omission } {
  if (isIncome(t)) return { omit: 'income' };
  if (countsNoMoney(t)) return { omit: 'noMoney' };
  const r = t.receipt;
  if (!r) return { kind: t.company_short_name === MANUAL_COMPANY_SHORT_NAME ? REPORT_KIND.manual : REPORT_KIND.ticket };
  if (r.tipo === 'E') return { kind: REPORT_KIND.creditNote };
  if (r.tipo === 'N') return { kind: REPORT_KIND.payroll };
  return { kind: REPORT_KIND.invoice };
}

/**
 * A CFDI whose seal did not verify is not a good deduction: the report says so next to its kind rather
 * than count it silently ('Factura (sello inválido)').
 */
function sealNote(r: Ticket['receipt']): string {
  if (!r) return '';
  if (r.seal === 'invalido' || r.seal_sat === 'invalido') return ' (sello inválido)';
  if (r.seal === 'sin_sello') return ' (sin sello)';
  return '';
}

/** A spending ticket as a report row (spec columns + tipo). Use spendingReport to leave out what is not spending. */
export function csvRow(t: Ticket, tradeName: string): CsvRow {
  const r = t.receipt;
  const kind = spendingKind(t);
  const cents = reportCents(t);
  const row: CsvRow = {
    rfcEmisor: r?.rfc_issuer ?? '',
    nombreComercialEmisor: tradeName,
    razonSocialEmisor: r?.name_issuer ?? '',
    rfcReceptor: r?.rfc_receiver ?? t.rfc,
    fechaEmision: r?.emission_date ?? t.received_at.slice(0, 10),
    monto: cents === null ? '' : formatCents(cents),
    categoria: categoryOf(t)?.tag_name ?? UNCATEGORIZED_LABEL,
    nota: t.note,
    uuid: r?.uuid ?? '',
    impuestosTrasladados: r?.imp_tras ?? '',
    impuestosRetenidos: r?.imp_ret ?? '',
    metodoDePago: r?.metodo_pago ?? '',
    numeroDeCuenta: r?.numctapago ?? '',
    tipo: 'kind' in kind ? `${kind.kind}${sealNote(r)}` : '',
  };
  for (const k of REPORT_COLUMNS) row[k] = neutralize(k, String(row[k] ?? ''));
  return row;
}

/** No department on file: as the company view's table says it. */
export const NO_DEPARTMENT_LABEL = 'Sin departamento';
/** The review state words of the `estado` column. */
export const REVIEW_STATE = { aprobado: 'Aprobado', rechazado: 'Rechazado', none: 'Por revisar' } as const;

/** A collaborator's spending ticket as a company report row: who, their department, the review and its reason. */
export function companyCsvRow(t: Ticket, tradeName: string): CompanyCsvRow {
  const review = reviewOf(t);
  const extra: Record<'colaborador' | 'departamento' | 'estado' | 'motivoDeRechazo', string> = {
    colaborador: t.username,
    departamento: t.user_area.trim() || NO_DEPARTMENT_LABEL,
    estado: review ? REVIEW_STATE[review.decision] : REVIEW_STATE.none,
    motivoDeRechazo: review?.decision === 'rechazado' ? (review.reason ?? '') : '',
  };
  for (const k of Object.keys(extra) as (keyof typeof extra)[]) extra[k] = neutralizeCell(String(extra[k] ?? ''));
  return { ...csvRow(t, tradeName), ...extra };
}

export interface SpendingReport<R> {
  /** The rows, in the order of the tickets given. */
  rows: R[];
  /** Exact sum of the rows' monto (credit notes subtract). */
  total: string;
  /** How many selected tickets were left out, and why. */
  omitted: Record<Omission, number>;
}

/** The spending among the tickets as rows, the rest counted by reason. */
export function spendingReport<R>(tickets: readonly Ticket[], toRow: (t: Ticket) => R): SpendingReport<R> {
  const rows: R[] = [];
  const omitted: Record<Omission, number> = { income: 0, noMoney: 0 };
  let cents = 0n;
  for (const t of tickets) {
    const kind = spendingKind(t);
    if ('omit' in kind) {
      omitted[kind.omit]++;
      continue;
    }
    rows.push(toRow(t));
    cents += reportCents(t) ?? 0n;
  }
  return { rows, total: formatCents(cents), omitted };
}

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/** 'Se omitieron 2 ingresos del reporte de gastos', with documents that move no money counted apart; null when none. */
export function omittedText(omitted: Record<Omission, number>): string | null {
  const parts: string[] = [];
  if (omitted.income > 0) parts.push(plural(omitted.income, 'ingreso', 'ingresos'));
  if (omitted.noMoney > 0) parts.push(plural(omitted.noMoney, 'comprobante sin importe (pago, traslado o cancelado)', 'comprobantes sin importe (pagos, traslados o cancelados)'));
  if (parts.length === 0) return null;
  const verb = omitted.income + omitted.noMoney === 1 ? 'Se omitió' : 'Se omitieron';
  return `${verb} ${parts.join(' y ')} del reporte de gastos`;
}

/** What the user is told after an export: rows and their total, then what was left out. */
export function exportedText(report: { rows: number; total: string; omitted: Record<Omission, number> }): string {
  const n = report.rows;
  const done =
    n === 0
      ? 'Ninguno de los comprobantes seleccionados es un gasto: no se descargó el reporte'
      : n === 1
        ? `Se exportó 1 comprobante al reporte de gastos por ${formatMoney(report.total)}`
        : `Se exportaron ${n} comprobantes al reporte de gastos por un total de ${formatMoney(report.total)}`;
  const left = omittedText(report.omitted);
  return left ? `${done}. ${left}.` : `${done}.`;
}
