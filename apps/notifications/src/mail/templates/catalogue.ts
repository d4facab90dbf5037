import { z } from 'zod';
import type { Block, MessageContent } from './layout';

/**
 * Every message the service sends, by template name: its category, what its stored params hold (checked again when
 * it is sent) and its content. docs/NOTIFICATIONS.md lists them; a new message gets an entry here and a row there.
 */

/** Categories a user may turn off (GET/PATCH /api/v1/auth/me/notifications); the others cannot be. */
export const SWITCHABLE_CATEGORIES = ['finance', 'appointments', 'reminders'] as const;
export type SwitchableCategory = (typeof SWITCHABLE_CATEGORIES)[number];
export type Category = 'account' | 'webhooks' | SwitchableCategory;

export const isSwitchable = (category: string): category is SwitchableCategory => (SWITCHABLE_CATEGORIES as readonly string[]).includes(category);

/** Where a message's links lead: the dashboard's pages, served by the gateway. */
export interface Links {
  dashboard: string;
}

const tokenLink = (links: Links, page: 'verify' | 'reset', token: string) => `${links.dashboard}#${page}?token=${encodeURIComponent(token)}`;

const appointmentParams = z.object({
  appointment: z.object({
    id: z.string(),
    status: z.string(),
    start: z.string(),
    end: z.string(),
    timeZone: z.string(),
    sequence: z.int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  /** The service's and location's names, when known: the .ics shows the same. */
  names: z.object({ service: z.string(), location: z.string() }),
  /** Why it was cancelled, as the canceller wrote it. */
  reason: z.string().optional(),
});
export type AppointmentParams = z.infer<typeof appointmentParams>;

const paymentParams = z.object({
  payment: z.object({
    id: z.string(),
    outcome: z.string().nullable(),
    note: z.string().nullable(),
    amount: z.number(),
    description: z.string().nullable(),
    date: z.string(),
  }),
});

/** A time on the location's clock, in words; in UTC when the zone is unknown. */
function localTime(instant: string, timeZone: string): string {
  const options = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' } as const;
  try {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone }).format(new Date(instant));
  } catch {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(new Date(instant));
  }
}

const appointmentFacts = ({ appointment, names }: AppointmentParams): Block => ({
  kind: 'facts',
  rows: [
    ['What', names.service],
    ['Where', names.location],
    ['When', localTime(appointment.start, appointment.timeZone)],
    ['Until', localTime(appointment.end, appointment.timeZone)],
  ],
});

const amountOf = (minorUnits: number) => (minorUnits / 100).toFixed(2);

const paymentFacts = ({ payment }: z.infer<typeof paymentParams>): Block => ({
  kind: 'facts',
  rows: [
    ['Amount', amountOf(payment.amount)],
    ['Dated', payment.date],
    ...(payment.description ? [['Description', payment.description] as const] : []),
    ...(payment.outcome ? [['Decision', payment.outcome] as const] : []),
    ...(payment.note ? [["Bursar's note", payment.note] as const] : []),
  ],
});

interface Template<P extends z.ZodType> {
  category: Category;
  params: P;
  content(params: z.infer<P>, links: Links): MessageContent;
  /** An appointment mail's iTIP part: the method, from the same params. */
  itip?: 'REQUEST' | 'CANCEL';
}

const template = <P extends z.ZodType>(definition: Template<P>) => definition;

export const TEMPLATES = {
  verify_email: template({
    category: 'account',
    params: z.object({ linkToken: z.string().min(1) }),
    content: ({ linkToken }, links) => ({
      subject: 'Verify your email address',
      blocks: [
        { kind: 'paragraph', text: 'Someone (we hope you) registered an account with this address. Open the link to prove the address is yours; it works once, for 24 hours.' },
        { kind: 'link', label: 'Verify this address', url: tokenLink(links, 'verify', linkToken) },
        { kind: 'paragraph', text: 'If it was not you, ignore this mail: the account stays unverified and can be given no role.' },
      ],
    }),
  }),
  password_reset: template({
    category: 'account',
    params: z.object({ linkToken: z.string().min(1) }),
    content: ({ linkToken }, links) => ({
      subject: 'Reset your password',
      blocks: [
        { kind: 'paragraph', text: 'A password reset was asked for this address. Open the link to choose a new password; it works once, for 30 minutes, and signs out every session.' },
        { kind: 'link', label: 'Choose a new password', url: tokenLink(links, 'reset', linkToken) },
        { kind: 'paragraph', text: 'If you did not ask for it, ignore this mail: your password stays as it is.' },
      ],
    }),
  }),
  registration_attempt: template({
    category: 'account',
    params: z.object({}).loose(),
    content: (_params, links) => ({
      subject: 'Someone tried to register with your address',
      blocks: [
        { kind: 'paragraph', text: 'Someone tried to register a new account with this address, which already has one. Nothing was changed.' },
        { kind: 'paragraph', text: 'If it was you and you have forgotten your password, reset it:' },
        { kind: 'link', label: 'Reset your password', url: `${links.dashboard}#reset` },
      ],
    }),
  }),
  endpoint_disabled: template({
    category: 'webhooks',
    params: z.object({ endpointId: z.string(), url: z.string(), reason: z.enum(['gone', 'failing']) }),
    content: ({ endpointId, url, reason }, links) => ({
      subject: 'A webhook endpoint of yours was disabled',
      blocks: [
        {
          kind: 'paragraph',
          text:
            reason === 'gone'
              ? 'The receiver answered 410 Gone, so the endpoint was disabled and gets no more events.'
              : 'Every delivery to it failed for 5 days, so the endpoint was disabled and gets no more events.',
        },
        { kind: 'facts', rows: [['Endpoint', endpointId], ['URL', url]] },
        { kind: 'paragraph', text: 'Enable it again once the receiver works; events since then can be recovered.' },
        { kind: 'link', label: 'Your webhook endpoints', url: `${links.dashboard}#webhooks` },
      ],
    }),
  }),
  payment_processed: template({
    category: 'finance',
    params: paymentParams,
    content: (params) => ({
      subject: params.payment.outcome === 'accepted' ? 'Your proof of payment was accepted' : 'Your proof of payment was rejected',
      blocks: [{ kind: 'paragraph', text: 'A bursar has looked at the proof of payment you submitted.' }, paymentFacts(params)],
    }),
  }),
  payment_resolved: template({
    category: 'finance',
    params: paymentParams,
    content: (params) => ({
      subject: 'Your proof of payment was resolved',
      blocks: [{ kind: 'paragraph', text: 'The proof of payment you submitted, which was waiting for a decision, was resolved.' }, paymentFacts(params)],
    }),
  }),
  appointment_booked: template({
    category: 'appointments',
    params: appointmentParams,
    itip: 'REQUEST',
    content: (params) => ({
      subject: `Appointment booked: ${params.names.service}, ${localTime(params.appointment.start, params.appointment.timeZone)}`,
      blocks: [{ kind: 'paragraph', text: 'Your appointment is booked. The invitation in this mail adds it to your calendar.' }, appointmentFacts(params)],
    }),
  }),
  appointment_rescheduled: template({
    category: 'appointments',
    params: appointmentParams,
    itip: 'REQUEST',
    content: (params) => ({
      subject: `Appointment moved: ${params.names.service}, now ${localTime(params.appointment.start, params.appointment.timeZone)}`,
      blocks: [{ kind: 'paragraph', text: 'Your appointment moved to a new time. The invitation in this mail updates your calendar.' }, appointmentFacts(params)],
    }),
  }),
  appointment_reminder: template({
    category: 'reminders',
    params: appointmentParams,
    // The invitation again, unchanged (same SEQUENCE): a calendar that lost it, or never took it, gets it back.
    itip: 'REQUEST',
    content: (params) => ({
      subject: `Reminder: ${params.names.service}, ${localTime(params.appointment.start, params.appointment.timeZone)}`,
      blocks: [
        { kind: 'paragraph', text: 'A reminder of your appointment. If you cannot come, cancel it so that someone else can have the time.' },
        appointmentFacts(params),
      ],
    }),
  }),
  appointment_cancelled: template({
    category: 'appointments',
    params: appointmentParams,
    itip: 'CANCEL',
    content: (params) => ({
      subject: `Appointment cancelled: ${params.names.service}, ${localTime(params.appointment.start, params.appointment.timeZone)}`,
      blocks: [
        { kind: 'paragraph', text: 'Your appointment was cancelled. The cancellation in this mail removes it from your calendar.' },
        appointmentFacts(params),
        ...(params.reason ? [{ kind: 'facts', rows: [['Reason', params.reason]] } as const] : []),
      ],
    }),
  }),
} as const;

export type TemplateName = keyof typeof TEMPLATES;
export const isTemplateName = (name: string): name is TemplateName => Object.hasOwn(TEMPLATES, name);
