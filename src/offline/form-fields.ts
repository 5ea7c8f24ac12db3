// Merchants' form definitions on the device (DESIGN §4 "form definitions"): a ticket form opens
// offline with the fields last seen, and refreshes them when the network answers.
import type { FormFieldDefinition } from '../domain/merchant-fields';
import type { AppDb } from './db';

export async function storedFormFields(db: AppDb, companyId: number): Promise<FormFieldDefinition[] | undefined> {
  return (await db.formFields.get(companyId))?.fields;
}

export async function storeFormFields(db: AppDb, companyId: number, fields: FormFieldDefinition[], now: number = Date.now()): Promise<void> {
  await db.formFields.put({ companyId, fields, fetchedAt: now });
}
