import type { IntakeCounts, UsageHistory } from '@rpm/contracts';

export interface UsageDay {
  date: string;
  /** Each medicine's counts that day, by medicine id; a medicine with no dose that day is absent. */
  counts: Record<string, IntakeCounts>;
}

/** The usage history turned by day: every day any medicine had a dose, newest first. */
export function usageDays(usage: Pick<UsageHistory, 'medicines'>): UsageDay[] {
  const byDate = new Map<string, UsageDay>();
  for (const medicine of usage.medicines) {
    for (const day of medicine.days) {
      const entry = byDate.get(day.date) ?? { date: day.date, counts: {} };
      entry.counts[medicine.medicineId] = day.counts;
      byDate.set(day.date, entry);
    }
  }
  return [...byDate.values()].sort((a, b) => b.date.localeCompare(a.date));
}
