/**
 * What the mail specs share: QueueAccountMail as the gateway calls it, events shaped as identity, finance and
 * scheduling publish them (test fixtures: the identity events stand in for the gateway's identity area), and each
 * received message parsed with mailparser.
 */
import { randomUUID } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import { AUDIT_SCHEMA_VERSION, notificationsV1, type AuditEvent } from '@libs/contracts';
import { callUnary, createClient, GATEWAY_ACTOR, outgoingMetadata, type Actor } from '@libs/grpc';
import { actingAs, type ReceivedMail, type RunningSystem } from '@libs/testing';


/** The mail RPCs, signed as the gateway acting for itself (QueueAccountMail, Unsubscribe) or as a user (preferences). */
export function accountMailApi(system: RunningSystem, actor: Actor = GATEWAY_ACTOR) {
  const client = createClient(notificationsV1.NotificationsServiceClient, system.grpcAddress('notifications'));
  return {
    queue: (request: Partial<notificationsV1.QueueAccountMailRequest>) =>
      callUnary(client.queueAccountMail.bind(client), notificationsV1.QueueAccountMailRequest.fromPartial({ mailId: randomUUID(), ...request }), {
        metadata: outgoingMetadata({ acting: actingAs(actor, 'notifications', client.queueAccountMail) }),
        timeoutMs: 10_000,
      }),
    unsubscribe: (token: string) =>
      callUnary(client.unsubscribe.bind(client), { token }, { metadata: outgoingMetadata({ acting: actingAs(actor, 'notifications', client.unsubscribe) }), timeoutMs: 10_000 }),
    getPreferences: () =>
      callUnary(client.getMailPreferences.bind(client), {}, { metadata: outgoingMetadata({ acting: actingAs(actor, 'notifications', client.getMailPreferences) }), timeoutMs: 10_000 }),
    updatePreferences: (request: Partial<notificationsV1.UpdateMailPreferencesRequest>) =>
      callUnary(client.updateMailPreferences.bind(client), notificationsV1.UpdateMailPreferencesRequest.fromPartial(request), {
        metadata: outgoingMetadata({ acting: actingAs(actor, 'notifications', client.updateMailPreferences) }),
        timeoutMs: 10_000,
      }),
    close: () => client.close(),
  };
}

const envelope = (action: string, entityType: string, id: string, subjects: string[], after: unknown, before: unknown = null): AuditEvent & { subjects: string[] } => ({
  eventId: randomUUID(),
  occurredAt: new Date().toISOString(),
  action,
  entityType,
  entityIds: [id],
  actor: { userId: 'spec', role: 'admin' },
  requestId: 'mail-spec',
  schemaVersion: AUDIT_SCHEMA_VERSION,
  subjects,
  before,
  after,
});

/** A user event as the identity area publishes it: the user's snapshot, no secret. */
export const userEvent = (action: 'user.registered' | 'user.email_verified' | 'user.role_changed', user: { id: string; email: string; role: string; emailVerified: boolean }) =>
  envelope(action, 'user', user.id, [user.id], { ...user, createdAt: new Date().toISOString() });

export interface AppointmentFixture {
  id: string;
  studentId: string;
  serviceId: string;
  locationId: string;
  sequence: number;
  status: string;
  start: string;
  end: string;
  reason?: string;
}

/** An appointment event as scheduling publishes it: the appointment's snapshot, its student and staff as subjects. */
export function appointmentEvent(action: string, appointment: AppointmentFixture, staff: string[] = []) {
  const now = new Date().toISOString();
  return envelope(action, 'appointment', appointment.id, [appointment.studentId, ...staff], {
    id: appointment.id,
    status: appointment.status,
    fhirStatus: appointment.status,
    locationId: appointment.locationId,
    resourceId: randomUUID(),
    serviceId: appointment.serviceId,
    studentId: appointment.studentId,
    start: appointment.start,
    end: appointment.end,
    timeZone: 'Europe/London',
    holdExpiresAt: null,
    version: appointment.sequence + 1,
    sequence: appointment.sequence,
    policy: null,
    bookedBy: appointment.studentId,
    cancellation: appointment.reason
      ? { reasonCode: 'other', reasonText: appointment.reason, cancelledBy: appointment.studentId, cancelledByRole: 'student', late: false, cancelledAt: now }
      : null,
    checkedInAt: null,
    completedAt: null,
    noShowAt: null,
    errorReason: null,
    createdAt: now,
    updatedAt: now,
  });
}

/** A service's event, which names it for appointment mail. */
export const serviceEvent = (id: string, name: string) => envelope('service.created', 'service', id, [], { id, name, version: 1 });

/** A payment's event as finance publishes it: its student's users as subjects. */
export function paymentEvent(action: 'payment.processed' | 'payment.resolved', studentUserId: string, payment: { outcome: string; note: string | null }) {
  const id = randomUUID();
  const now = new Date().toISOString();
  return envelope(action, 'payment', id, [studentUserId], {
    id,
    studentId: randomUUID(),
    userId: studentUserId,
    amount: 12_345,
    description: 'Tuition, first term',
    date: '2026-09-01',
    status: action === 'payment.processed' ? 'processed' : 'resolved',
    outcome: payment.outcome,
    note: payment.note,
    processedBy: 'bursar',
    processedAt: now,
    resolvedBy: null,
    resolvedAt: null,
    createdAt: now,
    updatedAt: now,
  });
}

export interface ParsedReceived extends ReceivedMail {
  parsed: ParsedMail;
}

/** Every mail the receiver got for an address (in any case), parsed. */
export async function mailsTo(mails: ReceivedMail[], address: string): Promise<ParsedReceived[]> {
  const mine = mails.filter((mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()));
  return Promise.all(mine.map(async (mail) => ({ ...mail, parsed: await simpleParser(mail.raw) })));
}

/** The value of one labelled counter on a metrics page (0 when it has not been counted yet). */
export async function counterValue(metricsUrl: string, name: string, labels: string): Promise<number> {
  const page = await (await fetch(metricsUrl)).text();
  const line = page.split('\n').find((row) => row.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** A header as the message carries it, unparsed (mailparser turns List-* headers into objects). */
export const rawHeader = (mail: ParsedReceived, name: string): string | undefined =>
  mail.parsed.headerLines.find((line) => line.key === name.toLowerCase())?.line.replace(/^[^:]*:\s*/, '');
