// A merchant's form fields as stored (form_fields rows) and as the client receives them (spec §3).
import { asc, eq } from 'drizzle-orm';
import type { FormFieldDefinition } from '../../domain/merchant-fields';
import type { Db } from '../db/client';
import { formFields } from '../db/schema';

export type FieldMeaning = 'ticket_number' | 'date' | 'amount' | 'venue' | 'check' | 'label' | 'other';

export interface MerchantField extends FormFieldDefinition {
  meaning: FieldMeaning;
}

export async function merchantFields(db: Db, companyId: number): Promise<MerchantField[]> {
  const rows = await db.select().from(formFields).where(eq(formFields.companyId, companyId)).orderBy(asc(formFields.position), asc(formFields.id));
  return rows.map((r) => ({
    form_configuration_id: r.id,
    field_name: r.fieldName,
    form_field_type_id: r.typeId,
    min_length: r.minLength,
    helper_image: r.helperImage,
    options: r.options,
    meaning: r.meaning as FieldMeaning,
  }));
}

/** What GET /form/fields.json shows: the definition without our matching rule. */
export function publicField(f: MerchantField): FormFieldDefinition {
  const { meaning: _meaning, ...definition } = f;
  return definition;
}
