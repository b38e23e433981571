// When a payout schedule runs (docs/payouts.md): pure functions of a schedule and a time. A run
// happens at 00:00 UTC of a run day on the mode's clock: every day (daily), on the anchor weekday
// (weekly), on the anchor day of the month or the month's last day when it is shorter (monthly),
// never on its own (manual). per_order sellers have no run.
import { WEEKDAYS, type PayoutSchedule } from '../../contracts/settings.js';

export const DAY_MS = 86_400_000;

/** 00:00 UTC of the day `at` falls in. */
export const startOfDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** Whether the UTC day of `day` is a run day of the schedule. */
export function isRunDay(schedule: PayoutSchedule, day: Date): boolean {
  if (schedule.method !== 'scheduled') return false;
  switch (schedule.interval) {
    case 'daily':
      return true;
    case 'weekly':
      // getUTCDay: 0 is Sunday; WEEKDAYS starts on Monday.
      return WEEKDAYS[(day.getUTCDay() + 6) % 7] === schedule.weekly_anchor;
    case 'monthly':
      return day.getUTCDate() === Math.min(schedule.monthly_anchor, daysInMonth(day.getUTCFullYear(), day.getUTCMonth()));
    case 'manual':
      return false;
  }
}

/** The next run (00:00 UTC of a run day) strictly after `now`; null when the schedule never runs on its own. */
export function nextRunAt(schedule: PayoutSchedule, now: Date): Date | null {
  if (schedule.method !== 'scheduled' || schedule.interval === 'manual') return null;
  let day = new Date(startOfDay(now).getTime() + DAY_MS);
  // At most a month and a day ahead (a monthly anchor always falls within 31 days).
  for (let i = 0; i < 32; i++, day = new Date(day.getTime() + DAY_MS)) {
    if (isRunDay(schedule, day)) return day;
  }
  return null;
}
