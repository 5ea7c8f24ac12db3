// The demo user's current year: on first start, both demo RFCs get a realistic Jan 1 → today
// of manual spendings and incomes, with notes and some receipt pictures, so a newcomer's first screen is
// alive. Deterministic (fixed seed), written once (a marker in settings), in one transaction.
import { and, eq, inArray } from 'drizzle-orm';
import { newIdAt } from '../../domain/ids';
import { conversionNote, toNational } from '../../domain/currency';
import { mexicoCityDate, mexicoCityMidnight } from '../../domain/mexico-time';
import {
  MANUAL_COMPANY_ID, MANUAL_EXPENSE_STATUS, MANUAL_INCOME_STATUS, TICKET_TYPE,
} from '../../domain/ticket';
import type { Db } from '../db/client';
import { clients, settings, tickets, users } from '../db/schema';
import { DEMO_RFCS, DEMO_USER } from '../db/demo-accounts';
import type { FileStore } from '../files/file-store';
import { receiptPng } from './png';
import { seededRandom } from '../../domain/seeded-random';

export const DEMO_MARKER = 'demo_tickets_v1';
const DAY = 86_400_000;
const INSERT_BATCH = 250;


interface Kind {
  id: number;
  weight: number;
  min: number;
  max: number;
  /** Mostly on working days. */
  workday?: boolean;
  /** Paid in round pesos (fuel, tolls). */
  round?: boolean;
  notes: string[];
}

const EXPENSES: Kind[] = [
  { id: 1, weight: 22, min: 85, max: 950, notes: ['Comida con cliente', 'Desayuno de trabajo', 'Café con el equipo', 'Cena de cierre de mes', 'Tacos después de la junta'] },
  { id: 2, weight: 14, min: 280, max: 2600, notes: ['Despensa de la semana', 'Artículos de limpieza para la oficina', 'Agua y café para la oficina', 'Compra del mes'] },
  { id: 3, weight: 12, min: 45, max: 420, workday: true, notes: ['Taxi al aeropuerto', 'Taxi a reunión en Polanco', 'Estacionamiento en el centro', 'Caseta México–Querétaro'] },
  { id: 4, weight: 12, min: 450, max: 1350, round: true, notes: ['Tanque lleno', 'Gasolina camino a Puebla', 'Carga antes de salir a carretera'] },
  { id: 5, weight: 2, min: 1200, max: 4800, workday: true, notes: ['Hotel en Monterrey por visita a cliente', 'Hospedaje del congreso en Guadalajara'] },
  { id: 6, weight: 2, min: 1800, max: 7200, workday: true, notes: ['Vuelo CDMX–Monterrey', 'Vuelo a Mérida para capacitación'] },
  { id: 10, weight: 5, min: 120, max: 1800, notes: ['Farmacia', 'Consulta médica', 'Análisis de laboratorio'] },
  { id: 11, weight: 2, min: 15, max: 650, notes: ['Comisión bancaria', 'Anualidad de la tarjeta'] },
  { id: 12, weight: 1.5, min: 500, max: 4500, notes: ['Curso en línea de Excel', 'Libro de contabilidad'] },
  { id: 13, weight: 6, min: 60, max: 980, workday: true, notes: ['Hojas y tóner', 'Papelería para la oficina', 'Engargolado de propuestas'] },
  { id: 14, weight: 1.5, min: 450, max: 18500, workday: true, notes: ['Mouse inalámbrico', 'Disco duro externo', 'Laptop para el despacho'] },
  { id: 15, weight: 3, min: 300, max: 3500, notes: ['Servicio del coche', 'Plomero para la oficina', 'Afinación'] },
  { id: 16, weight: 3, min: 400, max: 2800, notes: ['Zapatos para el trabajo', 'Uniformes'] },
  { id: 17, weight: 6, min: 120, max: 1100, notes: ['Cine', 'Boletos para el concierto', 'Salida con el equipo'] },
  { id: 19, weight: 2, min: 500, max: 6000, workday: true, notes: ['Anuncios en redes sociales', 'Tarjetas de presentación'] },
  { id: 22, weight: 0.5, min: 100, max: 1000, notes: ['Donativo a la Cruz Roja'] },
  { id: 23, weight: 3, min: 50, max: 900, notes: ['Varios', 'Regalo para un cliente'] },
];

interface Profile {
  rfc: string;
  seed: number;
  /** Monthly fixed spendings: category, day of month, amount range, note. */
  monthly: { id: number; day: number; min: number; max: number; note: string }[];
  /** Recurring incomes: income category, days of month, range, note. */
  incomes: { id: number; days: number[]; min: number; max: number; note: string }[];
  /** Occasional incomes to reach ~60 a year. */
  extraIncome: Kind[];
}

const PROFILES: Profile[] = [
  {
    rfc: DEMO_RFCS.persona.rfc,
    seed: 20_261_116,
    monthly: [
      { id: 9, day: 2, min: 12_500, max: 12_500, note: 'Renta del despacho' },
      { id: 8, day: 11, min: 649, max: 649, note: 'Internet y teléfono del despacho' },
      { id: 7, day: 18, min: 280, max: 920, note: 'Recibo de luz' },
    ],
    incomes: [
      { id: 2, days: [15, 28], min: 14_000, max: 26_000, note: 'Honorarios por asesoría contable' },
      { id: 4, days: [5], min: 9_500, max: 9_500, note: 'Renta del departamento en Coyoacán' },
    ],
    extraIncome: [
      { id: 5, weight: 3, min: 85, max: 420, notes: ['Intereses de la inversión'] },
      { id: 6, weight: 2, min: 300, max: 2500, notes: ['Reembolso de gastos de viaje'] },
      { id: 7, weight: 1, min: 500, max: 6000, notes: ['Venta de equipo usado'] },
    ],
  },
  {
    rfc: DEMO_RFCS.empresa.rfc,
    seed: 19_900_317,
    monthly: [
      { id: 9, day: 1, min: 28_000, max: 28_000, note: 'Renta del plantel' },
      { id: 8, day: 10, min: 1_299, max: 1_299, note: 'Internet del plantel' },
      { id: 18, day: 20, min: 3_500, max: 3_500, note: 'Honorarios del contador' },
    ],
    incomes: [{ id: 3, days: [3, 10, 17, 24], min: 18_000, max: 68_000, note: 'Colegiaturas de la semana' }],
    extraIncome: [
      { id: 5, weight: 2, min: 120, max: 900, notes: ['Intereses de la cuenta de inversión'] },
      { id: 3, weight: 3, min: 2_500, max: 15_000, notes: ['Inscripciones a cursos de verano', 'Venta de uniformes'] },
      { id: 7, weight: 1, min: 800, max: 5_000, notes: ['Renta del auditorio para un evento'] },
    ],
  },
];

export interface DemoTicket {
  id: string;
  type: number;
  statusId: number;
  receivedAt: Date;
  amount: string;
  note: string;
  metaTagId: number | null;
  incomeMetaTagId: number | null;
  currency: string;
  originalAmount: string | null;
  image: boolean;
}

const pick = <T extends { weight: number }>(list: T[], random: () => number): T => {
  const total = list.reduce((s, k) => s + k.weight, 0);
  let r = random() * total;
  for (const k of list) {
    r -= k.weight;
    if (r < 0) return k;
  }
  return list[list.length - 1] as T;
};

/** Log-uniform between min and max, so small tickets are more common than large ones. */
const amountBetween = (min: number, max: number, random: () => number, round = false) => {
  const v = min === max ? min : Math.exp(Math.log(min) + random() * (Math.log(max) - Math.log(min)));
  return round ? Math.round(v / 50) * 50 || min : Math.round(v * 100) / 100;
};

/** The demo year of one RFC up to `now` (Mexico City calendar): pure, so tests can look at it. */
export function demoTickets(profile: Profile, now: Date): DemoTicket[] {
  const random = seededRandom(profile.seed);
  const { year, month, day } = mexicoCityDate(now);
  const jan1 = mexicoCityMidnight(year, 1, 1).getTime();
  const days = Math.round((mexicoCityMidnight(year, month, day).getTime() - jan1) / DAY) + 1;
  const out: DemoTicket[] = [];
  const bytes = () => Uint8Array.from({ length: 16 }, () => Math.floor(random() * 256));
  const at = (dayIndex: number) => {
    const d = new Date(jan1 + dayIndex * DAY);
    const local = mexicoCityDate(new Date(d.getTime() + 12 * 3_600_000));
    const start = mexicoCityMidnight(local.year, local.month, local.day).getTime();
    const t = start + (8 + random() * 13) * 3_600_000;
    return new Date(Math.min(t, now.getTime() - 60_000 - Math.floor(random() * 3_600_000)));
  };
  const push = (t: Omit<DemoTicket, 'id' | 'image' | 'statusId' | 'currency' | 'originalAmount'> & Partial<DemoTicket>) => {
    out.push({
      id: newIdAt(t.receivedAt.getTime(), bytes()),
      statusId: t.type === TICKET_TYPE.expense ? MANUAL_EXPENSE_STATUS : MANUAL_INCOME_STATUS,
      currency: 'MXN',
      originalAmount: null,
      image: false,
      ...t,
    });
  };
  const withNote = (notes: string[]) => (random() < 0.3 ? (notes[Math.floor(random() * notes.length)] ?? '') : '');

  // Fixed monthly spendings and recurring incomes, on their days (Mexico City calendar).
  for (let m = 1; m <= month; m++) {
    for (const f of profile.monthly) {
      const idx = Math.round((mexicoCityMidnight(year, m, f.day).getTime() - jan1) / DAY);
      if (idx >= days) continue;
      const amount = amountBetween(f.min, f.max, random).toFixed(2);
      push({ type: TICKET_TYPE.expense, receivedAt: at(idx), amount, note: random() < 0.5 ? f.note : '', metaTagId: f.id, incomeMetaTagId: null });
    }
    for (const inc of profile.incomes) {
      for (const d of inc.days) {
        const idx = Math.round((mexicoCityMidnight(year, m, d).getTime() - jan1) / DAY);
        if (idx >= days) continue;
        const amount = amountBetween(inc.min, inc.max, random).toFixed(2);
        push({ type: TICKET_TYPE.income, receivedAt: at(idx), amount, note: random() < 0.4 ? inc.note : '', metaTagId: null, incomeMetaTagId: inc.id });
      }
    }
  }

  // Everyday spendings and occasional incomes: about 250 and 60 by late November.
  const expenseTarget = Math.round((270 * days) / 365);
  const incomeTarget = Math.round((66 * days) / 365);
  const fixedExpenses = out.filter((t) => t.type === TICKET_TYPE.expense).length;
  for (let i = fixedExpenses; i < expenseTarget; i++) {
    const k = pick(EXPENSES, random);
    let idx = Math.floor(random() * days);
    const weekday = new Date(jan1 + idx * DAY + 12 * 3_600_000).getUTCDay();
    if (k.workday && (weekday === 0 || weekday === 6) && random() < 0.8) idx = Math.max(0, idx - (weekday === 6 ? 1 : 2));
    const amount = amountBetween(k.min, k.max, random, k.round);
    const foreign = (k.id === 5 || k.id === 6) && random() < 0.4;
    if (foreign) {
      const usd = Math.round((amount / 17.5) * 100) / 100;
      const rate = 17 + random();
      push({
        type: TICKET_TYPE.expense, receivedAt: at(idx), amount: toNational(usd, rate).toFixed(2),
        note: conversionNote(usd, 'USD', rate), metaTagId: k.id, incomeMetaTagId: null, currency: 'USD', originalAmount: usd.toFixed(2),
      });
    } else {
      push({ type: TICKET_TYPE.expense, receivedAt: at(idx), amount: amount.toFixed(2), note: withNote(k.notes), metaTagId: k.id, incomeMetaTagId: null });
    }
  }
  const fixedIncomes = out.filter((t) => t.type === TICKET_TYPE.income).length;
  for (let i = fixedIncomes; i < incomeTarget; i++) {
    const k = pick(profile.extraIncome, random);
    const amount = amountBetween(k.min, k.max, random).toFixed(2);
    push({ type: TICKET_TYPE.income, receivedAt: at(Math.floor(random() * days)), amount, note: withNote(k.notes), metaTagId: null, incomeMetaTagId: k.id });
  }

  // About 20 everyday spendings carry a photographed receipt.
  const everyday = out.filter((t) => t.type === TICKET_TYPE.expense && t.currency === 'MXN');
  const pictures = Math.min(20, Math.round(everyday.length / 12));
  for (let n = 0; n < pictures; n++) {
    const t = everyday[Math.floor(random() * everyday.length)];
    if (t) t.image = true;
  }
  return out.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
}

export const DEMO_PROFILES = PROFILES;

/**
 * Writes the demo year once (the marker in settings is claimed in the same transaction, so two
 * starting processes cannot both do it). Answers how many tickets were written (0 when already done).
 */
export async function seedDemoTickets(db: Db, files: FileStore, now: Date = new Date()): Promise<number> {
  const [done] = await db.select({ key: settings.key }).from(settings).where(eq(settings.key, DEMO_MARKER));
  if (done) return 0;
  const owners = await db
    .select({ userId: users.id, clientId: clients.id, rfc: clients.rfc })
    .from(clients)
    .innerJoin(users, eq(users.id, clients.userId))
    .where(and(eq(users.username, DEMO_USER.username), inArray(clients.rfc, PROFILES.map((p) => p.rfc))));

  const rows: (typeof tickets.$inferInsert)[] = [];
  for (const profile of PROFILES) {
    const owner = owners.find((o) => o.rfc === profile.rfc);
    if (!owner) continue;
    const random = seededRandom(profile.seed ^ 0x5eed);
    for (const t of demoTickets(profile, now)) {
      let imageKey: string | null = null;
      let imageSize: number | null = null;
      if (t.image) {
        const png = receiptPng(random);
        imageKey = `demo/${t.id}.png`;
        imageSize = png.byteLength;
        // Same id, same bytes: a second process writing it again changes nothing.
        await files.put(imageKey, png);
      }
      rows.push({
        id: t.id,
        userId: owner.userId,
        clientId: owner.clientId,
        type: t.type,
        statusId: t.statusId,
        companyId: MANUAL_COMPANY_ID,
        ticketNumber: '',
        amount: t.amount,
        receivedAt: t.receivedAt,
        note: t.note,
        metaTagId: t.metaTagId,
        incomeMetaTagId: t.incomeMetaTagId,
        currency: t.currency,
        originalAmount: t.originalAmount,
        imageKey,
        imageType: imageKey ? 'image/png' : null,
        imageSize,
        createdAt: t.receivedAt,
        updatedAt: t.receivedAt,
      });
    }
  }

  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(settings)
      .values({ key: DEMO_MARKER, value: { tickets: rows.length, at: now.toISOString() } })
      .onConflictDoNothing()
      .returning({ key: settings.key });
    if (claimed.length === 0) return 0;
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await tx.insert(tickets).values(rows.slice(i, i + INSERT_BATCH)).onConflictDoNothing();
    }
    return rows.length;
  });
}
