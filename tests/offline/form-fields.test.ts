// The v3 schema adds merchants' form definitions without touching existing data.
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { FormFieldDefinition } from '../../src/domain/merchant-fields';
import { createDb, SCHEMA_V2, type AppDb } from '../../src/offline/db';
import { storeFormFields, storedFormFields } from '../../src/offline/form-fields';

let db: AppDb;
let n = 0;
afterEach(async () => {
  await db.delete();
});

const fields: FormFieldDefinition[] = [
  { form_configuration_id: 301, field_name: 'Número de ticket', form_field_type_id: 1, min_length: null, helper_image: '/h.png', options: [] },
  { form_configuration_id: 302, field_name: 'Sucursal', form_field_type_id: 8, min_length: null, helper_image: null, options: [{ option_id: 1, option_title: 'Centro' }] },
];

describe('form definitions table (Dexie v3)', () => {
  it('upgrading a v2 database keeps its tickets and adds formFields', async () => {
    const name = `test-ff-${++n}`;
    const v2 = new Dexie(name);
    v2.version(2).stores(SCHEMA_V2);
    await v2.open();
    await v2.table('companies').put({ short_name: 'autozone', diverza_client_id: 3, name: 'Autozone', value: '/merchants/autozone.svg' });
    v2.close();

    db = createDb(name);
    await db.open();
    expect(db.verno).toBe(4);
    expect(db.formFields.schema.primKey.keyPath).toBe('companyId');
    expect((await db.companies.get('autozone'))?.diverza_client_id).toBe(3);
    expect(await db.formFields.count()).toBe(0);
  });

  it('stores and replaces a merchant definition by company id', async () => {
    db = createDb(`test-ff-${++n}`);
    expect(await storedFormFields(db, 3)).toBeUndefined();
    await storeFormFields(db, 3, fields, 10);
    expect(await storedFormFields(db, 3)).toEqual(fields);
    await storeFormFields(db, 3, fields.slice(0, 1), 20);
    expect(await storedFormFields(db, 3)).toEqual(fields.slice(0, 1));
    expect((await db.formFields.get(3))?.fetchedAt).toBe(20);
    expect(await storedFormFields(db, 4)).toBeUndefined();
  });
});
