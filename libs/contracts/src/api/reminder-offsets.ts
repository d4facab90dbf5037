import { z } from 'zod';
import { REMINDER_LIMITS } from './limits';

/**
 * A reminder offset: an ISO 8601 duration of weeks, days, hours and minutes, read as elapsed time before the
 * appointment's start. A day is 24 hours here, not a calendar day: a reminder "P1D" before a start just after a
 * daylight-saving change still comes exactly 24 hours before it, which is what a person waiting for it counts on.
 * Years and months have no fixed length and seconds no use, so they are refused.
 */
const DURATION = /^P(?:(\d{1,5})W)?(?:(\d{1,5})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,8})M)?)?$/;

const MS_PER_MINUTE = 60_000;

/** The minutes of an offset as written, or undefined when it is not one of the durations above. */
export function reminderMinutes(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return undefined;
  const [weeks, days, hours, minutes] = match.slice(1).map((part) => Number(part ?? 0));
  return ((weeks * 7 + days) * 24 + hours) * 60 + minutes;
}

/** The one spelling of an offset: hours and minutes (P1D and PT1440M are both PT24H), so equal offsets compare equal. */
export function canonicalReminder(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `PT${hours > 0 ? `${hours}H` : ''}${rest > 0 || hours === 0 ? `${rest}M` : ''}`;
}

/** The offset of a canonical (stored) reminder in milliseconds. */
export const reminderOffsetMs = (canonical: string): number => (reminderMinutes(canonical) ?? 0) * MS_PER_MINUTE;

const { perPolicy, minMinutes, maxMinutes } = REMINDER_LIMITS;
const offsetRule = `must be an ISO 8601 duration of weeks, days, hours and minutes (PT24H, PT30M, P1D) from ${canonicalReminder(minMinutes)} to ${canonicalReminder(maxMinutes)}`;

/** A policy's reminders as a request gives them; the output is canonical, without repeats, longest first. */
export const reminders = z
  .array(z.string().max(40, { message: offsetRule }), { message: 'must be a list of durations' })
  .max(perPolicy, { message: `must hold at most ${perPolicy} reminders`, abort: true })
  .superRefine((offsets, context) => {
    const seen = new Set<number>();
    offsets.forEach((offset, index) => {
      const minutes = reminderMinutes(offset);
      if (minutes === undefined || minutes < minMinutes || minutes > maxMinutes) context.addIssue({ code: 'custom', path: [index], message: offsetRule });
      else if (seen.has(minutes)) context.addIssue({ code: 'custom', path: [index], message: 'repeats an earlier reminder' });
      else seen.add(minutes);
    });
  })
  .transform((offsets) =>
    offsets
      .map((offset) => reminderMinutes(offset) ?? 0)
      .sort((a, b) => b - a)
      .map(canonicalReminder),
  )
  .meta({
    description: `Reminders before the start, as elapsed durations (a day is 24 hours, whatever the clocks do): at most ${perPolicy}, each from ${canonicalReminder(minMinutes)} to ${canonicalReminder(maxMinutes)}. Answers give them in their canonical form (P1D as PT24H), longest first. An empty list sends none; an omitted one is ${JSON.stringify(REMINDER_LIMITS.default)}.`,
  });
