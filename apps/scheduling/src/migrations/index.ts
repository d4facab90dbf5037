import type { Migration } from '@libs/db';
import { outboxPayloadBytes } from '@libs/outbox';
import { m0001Scheduling } from './0001-scheduling';
import { m0002StudentCaps } from './0002-student-caps';
import { m0003Reminders } from './0003-reminders';
import { m0004AppointmentReminders } from './0004-appointment-reminders';
import { m0005CalendarFeeds } from './0005-calendar-feeds';

/** Every migration, in order. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [m0001Scheduling, m0002StudentCaps, m0003Reminders, m0004AppointmentReminders, m0005CalendarFeeds, outboxPayloadBytes('0006-outbox-payload-bytes')];
