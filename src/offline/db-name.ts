// Kept apart from db.ts so code that only needs the name (logout) does not pull Dexie in.
export const DB_NAME = 'cuentas-claras';
