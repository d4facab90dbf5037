import type { Options as MailOptions } from 'nodemailer/lib/mailer';
import { appointmentCalendar } from '@libs/calendar';
import { schedulingV1 } from '@libs/contracts';
import { renderContent, type Block } from './templates/layout';
import { isSwitchable, isTemplateName, TEMPLATES, type AppointmentParams, type Links, type SwitchableCategory } from './templates/catalogue';

/** One stored mail, as the sender claims it. */
export interface MailRow {
  id: string;
  template: string;
  category: string;
  /** The user id of an event's mail; the address of an account mail. */
  recipient: string;
  to_address: string;
  params: unknown;
}

export interface RenderSettings {
  /** MAIL_FROM: one mailbox, checked at start-up. */
  from: { name: string; address: string };
  links: Links;
  /** The one-click unsubscribe URL of a user's category (gateway route, signed token). */
  unsubscribeUrl(userId: string, category: SwitchableCategory): string;
}

/** A mail that cannot be made from its row (an unknown template, params of another shape): final, never retried. */
export class UnrenderableMail extends Error {}

/** The mail's iTIP part, from the appointment's own renderer: the same UID and SEQUENCE as its `.ics`. */
function itipPart(method: 'REQUEST' | 'CANCEL', params: AppointmentParams, to: string, settings: RenderSettings) {
  const appointment = schedulingV1.Appointment.fromPartial(params.appointment);
  const content = appointmentCalendar(appointment, params.names, { method, organizer: { email: settings.from.address, name: settings.from.name }, attendee: { email: to } });
  return { method, content };
}

/**
 * The message of a stored mail: both parts from its template, headers from values that cannot carry a line break
 * (the subject through headerText; addresses checked when stored), a Message-ID from the row's id so a mail sent
 * again after a lost answer is recognisably the same, and List-Unsubscribe (RFC 8058) where the category can be
 * turned off.
 */
export function renderMail(row: MailRow, settings: RenderSettings): MailOptions {
  if (!isTemplateName(row.template)) throw new UnrenderableMail(`no template ${row.template}`);
  const template = TEMPLATES[row.template];
  const parsed = template.params.safeParse(row.params);
  if (!parsed.success) throw new UnrenderableMail(`the params of ${row.template} do not fit it: ${parsed.error.message.slice(0, 200)}`);
  const unsubscribe = isSwitchable(row.category) ? settings.unsubscribeUrl(row.recipient, row.category) : undefined;
  const footer: Block[] = unsubscribe
    ? [{ kind: 'link', label: `Stop these ${row.category} mails`, url: `${settings.links.dashboard}#notifications` }]
    : [];
  // The content function of the template that the name picked: its params were parsed by that template's schema.
  const content = (template.content as (params: unknown, links: Links) => ReturnType<typeof template.content>)(parsed.data, settings.links);
  const { subject, text, html } = renderContent(content, footer);
  const domain = settings.from.address.split('@')[1] ?? 'localhost';
  const itip = 'itip' in template ? template.itip : undefined;
  return {
    from: settings.from,
    to: { name: '', address: row.to_address },
    subject,
    text,
    html,
    messageId: `<${row.id}@${domain}>`,
    ...(unsubscribe ? { headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
    ...(itip ? { icalEvent: itipPart(itip, parsed.data as AppointmentParams, row.to_address, settings) } : {}),
  };
}
