// Names and category lists for ticket rows (origin names, income category names, the category
// selects), from Dexie with the seeded lists as a fallback. Shared by the dashboard and the annual view.
import { useMemo } from 'react';
import { EXPENSE_CATEGORIES, INCOME_CATEGORIES } from '../../domain/categories';
import { db } from '../../offline/db';
import type { NameLookups } from './ticket-list-model';
import { useStableLiveQuery } from '../ui/use-stable-live-query';
import type { CategoryLists } from './ticket-controls';

export function useLookups(): { lookups: NameLookups; lists: CategoryLists } {
  // One answer for the three lists (one render, not three), kept while a refresh stores the same rows.
  const [companies, expense, income] =
    useStableLiveQuery(() => Promise.all([db.companies.toArray(), db.categories.orderBy('id').toArray(), db.incomeCategories.orderBy('id').toArray()])) ?? [];
  return useMemo(() => {
    const expenseRows = expense && expense.length > 0 ? expense : [...EXPENSE_CATEGORIES];
    const incomeRows = income && income.length > 0 ? income : [...INCOME_CATEGORIES];
    return {
      lookups: {
        companies: new Map((companies ?? []).map((c) => [c.short_name, c.name])),
        incomeCategories: new Map(incomeRows.map((c) => [c.id, c.income_meta_tag])),
      },
      lists: {
        expenseRows,
        expense: expenseRows.map((c) => ({ value: String(c.id), label: c.meta_tag })),
        income: incomeRows.map((c) => ({ value: String(c.id), label: c.income_meta_tag })),
      },
    };
  }, [companies, expense, income]);
}
