// Expense and income categories seeded on first start (spec §3). Id 11 must be 'Gastos Financieros'.
export const UNCATEGORIZED_LABEL = 'Sin Categoría';
export const FINANCIAL_EXPENSES_ID = 11;

export const EXPENSE_CATEGORIES: readonly { id: number; meta_tag: string }[] = [
  { id: 1, meta_tag: 'Alimentos y bebidas' },
  { id: 2, meta_tag: 'Supermercado' },
  { id: 3, meta_tag: 'Transporte' },
  { id: 4, meta_tag: 'Gasolina' },
  { id: 5, meta_tag: 'Hospedaje' },
  { id: 6, meta_tag: 'Viajes y avión' },
  { id: 7, meta_tag: 'Servicios (luz, agua, gas)' },
  { id: 8, meta_tag: 'Teléfono e internet' },
  { id: 9, meta_tag: 'Renta' },
  { id: 10, meta_tag: 'Salud y farmacia' },
  { id: 11, meta_tag: 'Gastos Financieros' },
  { id: 12, meta_tag: 'Educación' },
  { id: 13, meta_tag: 'Papelería y oficina' },
  { id: 14, meta_tag: 'Equipo de cómputo' },
  { id: 15, meta_tag: 'Mantenimiento' },
  { id: 16, meta_tag: 'Ropa y calzado' },
  { id: 17, meta_tag: 'Entretenimiento' },
  { id: 18, meta_tag: 'Honorarios profesionales' },
  { id: 19, meta_tag: 'Publicidad' },
  { id: 20, meta_tag: 'Seguros' },
  { id: 21, meta_tag: 'Impuestos y derechos' },
  { id: 22, meta_tag: 'Donativos' },
  { id: 23, meta_tag: 'Otros gastos' },
];

export const INCOME_CATEGORIES: readonly { id: number; income_meta_tag: string }[] = [
  { id: 1, income_meta_tag: 'Sueldos y salarios' },
  { id: 2, income_meta_tag: 'Honorarios' },
  { id: 3, income_meta_tag: 'Ventas' },
  { id: 4, income_meta_tag: 'Arrendamiento' },
  { id: 5, income_meta_tag: 'Intereses' },
  { id: 6, income_meta_tag: 'Reembolsos' },
  { id: 7, income_meta_tag: 'Otros ingresos' },
];
