// A company's departments (spec §3 Area, §5 'New department'): stored normalised, unique per company;
// deleting one leaves its collaborators without a department (the foreign key sets area_id to null).
import { and, asc, eq, sql } from 'drizzle-orm';
import { normalizeDepartment, type Area } from '../../domain/company';
import { MSG } from '../../domain/messages';
import type { Db } from '../db/client';
import { companyAreas } from '../db/schema-company';
import { fail } from '../http/errors';

export async function listAreas(db: Db, companyId: number): Promise<Area[]> {
  return db
    .select({ id: companyAreas.id, area: companyAreas.area })
    .from(companyAreas)
    .where(eq(companyAreas.companyClientId, companyId))
    .orderBy(asc(companyAreas.area), asc(companyAreas.id));
}

/** Adds a department: '' is ignored (no row), a repeated name is refused with the spec's warning (422). */
export async function addArea(db: Db, companyId: number, raw: string): Promise<Area[]> {
  const area = normalizeDepartment(raw);
  if (area) {
    const rows = await db
      .insert(companyAreas)
      .values({ companyClientId: companyId, area })
      .onConflictDoNothing()
      .returning({ id: companyAreas.id });
    if (rows.length === 0) throw fail(422, MSG.duplicatesSkipped);
  }
  return listAreas(db, companyId);
}

export async function deleteArea(db: Db, companyId: number, areaId: number): Promise<Area[]> {
  const rows = await db
    .delete(companyAreas)
    .where(and(eq(companyAreas.id, areaId), eq(companyAreas.companyClientId, companyId)))
    .returning({ id: companyAreas.id });
  if (rows.length === 0) throw fail(404, MSG.notFound);
  return listAreas(db, companyId);
}

/** True when `areaId` is one of the company's departments. */
export async function isCompanyArea(db: Db, companyId: number, areaId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(companyAreas)
    .where(and(eq(companyAreas.id, areaId), eq(companyAreas.companyClientId, companyId)))
    .limit(1);
  return Boolean(row);
}
