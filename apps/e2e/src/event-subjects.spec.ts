import { createHash, randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { busTopology } from '@libs/bus';
import { canonicalJson, DEMO_USER_IDS, SUBJECTS_VERSION } from '@libs/contracts';
import { AMQP_URL, signedMessage, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { allAuditEntries, isIdentityEntry } from './audit-helpers';
import { anotherUser, APPOINTMENTS, freeSlots, openClinic, SchedulingCaller, type Clinic } from './appointments-rest/appointment-helpers';
import { DEMO_STUDENT_ID } from './finance-fixtures';
import { api } from './http';
import { clinician } from './scheduling/scheduling-client';

interface Person {
  name: string;
  userId: string;
  key: string;
}

/**
 * Every kind of finance and scheduling change, made through the API, and the `subjects` of its event as the audit
 * log stored it: the users who, besides the roles that read every such record, could read the entity just before
 * or just after the change. Where a student or a clinician reads the entity through their own key, the people who
 * can read it afterwards are exactly those subjects the change did not take it from.
 */
describe('subjects of finance and scheduling events', () => {
  let system: RunningSystem;
  let caller: SchedulingCaller;
  let clinic: Clinic;
  /** Two students and two clinicians: A of each is concerned by the changes, B only where a test makes them so. */
  let studentA: Person;
  let studentB: Person;
  let clinicianA: Person;
  let clinicianB: Person;
  let everyone: Person[];
  /** An event as finance wrote it before subjects existed, stored before everything the tests change. */
  const older = {
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    action: 'category.created',
    entityType: 'category',
    entityIds: [randomUUID()],
    actor: { userId: DEMO_USER_IDS.bursar, role: 'bursar' },
    requestId: 'before-subjects',
    schemaVersion: SUBJECTS_VERSION - 1,
    before: null,
    after: null,
  };

  beforeAll(async () => {
    system = await startSystem();
    caller = new SchedulingCaller(system.grpcAddress('scheduling'));
    const connection = await connect(AMQP_URL);
    try {
      const channel = await connection.createConfirmChannel();
      const { routingKey, content, options } = signedMessage(system, 'finance', older);
      channel.publish(busTopology(`${system.namespace}.`).exchange, routingKey, content, options);
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
    await waitFor('the older event in the audit log', async () => ((await allAuditEntries(system)).some((entry) => entry.eventId === older.eventId) ? true : undefined));

    studentA = { name: 'student A', userId: DEMO_USER_IDS.student, key: system.keys.student };
    studentB = { name: 'student B', ...(await anotherUser(system, 'student')) };
    clinicianA = { name: 'clinician A', userId: DEMO_USER_IDS.clinician, key: system.keys.clinician };
    clinicianB = { name: 'clinician B', ...(await anotherUser(system, 'clinician')) };
    everyone = [studentA, studentB, clinicianA, clinicianB];
  }, 120_000);

  afterAll(async () => {
    caller?.close();
    await system?.shutdown();
  });

  const call = async (key: string, path: string, method = 'GET', body?: unknown) => {
    const response = await api(system.gatewayUrl, path, { method, key, body, headers: method === 'PATCH' ? { 'if-match': '*' } : {} });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const names = (people: Person[]) => people.map((person) => person.name).sort();

  /** The event of `action` about `id` names exactly these people (and no one else). */
  const expectSubjects = async (action: string, id: string, people: Person[]) => {
    const entry = await waitFor(`the ${action} entry of ${id}`, async () => {
      const entries = await allAuditEntries(system, `action=${action}&entityId=${id}`);
      return entries.length === 1 ? entries[0] : undefined;
    });
    expect({ action, schemaVersion: entry.schemaVersion, subjects: entry.subjects }).toEqual({
      action,
      schemaVersion: SUBJECTS_VERSION,
      subjects: people.map((person) => person.userId).sort(),
    });
  };

  /** Of the four people, exactly these read the entity through the API now (`shows`: a list holds it). */
  const expectReaders = async (path: string, people: Person[], shows: (body: any) => boolean = () => true) => { // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary JSON
    const readers = [];
    for (const person of everyone) {
      const response = await api(system.gatewayUrl, path, { key: person.key });
      if (response.status === 200 && shows(response.body)) readers.push(person);
    }
    expect({ path, readers: names(readers) }).toEqual({ path, readers: names(people) });
  };

  describe('finance', () => {
    let studentRowB: { id: string };

    beforeAll(async () => {
      const registration = await call(system.keys.bursar, '/api/v1/finance/registration-numbers', 'POST', { number: 'REG-SUBJECTS-B' });
      await expectSubjects('registration_number.created', registration.id, []);
      studentRowB = await call(system.keys.bursar, '/api/v1/finance/students', 'POST', { registrationNumberId: registration.id, userId: studentB.userId });
      await expectSubjects('student.created', studentRowB.id, [studentB]);
      await expectReaders(`/api/v1/finance/students/${studentRowB.id}`, [studentB]);
    });

    const transaction = (studentId: string | null) => ({
      date: '2026-09-01',
      categoryId: '00000000-0000-4000-8000-00000000c001',
      payee: 'Registrar',
      amount: -125_000,
      accountId: '00000000-0000-4000-8000-00000000a001',
      ...(studentId && { studentId }),
    });

    it('a transaction: its student, and the one it is moved from; none without a student', async () => {
      const path = '/api/v1/transactions';
      const created = await call(system.keys.bursar, path, 'POST', transaction(DEMO_STUDENT_ID));
      await expectSubjects('transaction.created', created.id, [studentA]);
      await expectReaders(`${path}/${created.id}`, [studentA]);

      await call(system.keys.bursar, `${path}/${created.id}`, 'PATCH', { studentId: studentRowB.id });
      await expectSubjects('transaction.updated', created.id, [studentA, studentB]);
      await expectReaders(`${path}/${created.id}`, [studentB]);

      const reversal = await call(system.keys.bursar, `${path}/reversals`, 'POST', { transactionId: created.id, reason: 'entered twice' });
      await expectSubjects('transaction.reversed', reversal.id, [studentB]);
      await expectReaders(`${path}/${reversal.id}`, [studentB]);

      await call(system.keys.admin, `${path}/${reversal.id}`, 'DELETE');
      await call(system.keys.admin, `${path}/${created.id}`, 'DELETE');
      await expectSubjects('transaction.deleted', created.id, [studentB]);

      const unowned = await call(system.keys.bursar, path, 'POST', transaction(null));
      await expectSubjects('transaction.created', unowned.id, []);
      await expectReaders(`${path}/${unowned.id}`, []);
    });

    it('a bulk create and a bulk delete: the students of all their transactions', async () => {
      const items = [transaction(DEMO_STUDENT_ID), transaction(studentRowB.id), transaction(null), transaction(DEMO_STUDENT_ID)];
      const { ids } = await call(system.keys.bursar, '/api/v1/transactions/bulk-create', 'POST', items);
      await expectSubjects('transaction.bulk_created', ids[0], [studentA, studentB]);
      await call(system.keys.admin, '/api/v1/transactions/bulk-delete', 'POST', ids);
      await expectSubjects('transaction.bulk_deleted', ids[0], [studentA, studentB]);
    });

    it('a proof of payment through its moves, and a statement line: their student', async () => {
      const payments = '/api/v1/transactions/payments';
      const submitted = await call(studentB.key, payments, 'POST', { amount: 10_000, date: '2026-10-01', description: 'Transfer' });
      await expectSubjects('payment.submitted', submitted.id, [studentB]);
      await expectReaders(payments, [studentB], (body) => body.payments.some((p: { id: string }) => p.id === submitted.id));
      await call(system.keys.bursar, `${payments}/${submitted.id}`, 'PATCH', { outcome: 'accepted' });
      await expectSubjects('payment.processed', submitted.id, [studentB]);
      await call(system.keys.bursar, `${payments}/${submitted.id}/resolve`, 'PATCH', { note: 'filed' });
      await expectSubjects('payment.resolved', submitted.id, [studentB]);
      await call(system.keys.bursar, `${payments}/${submitted.id}/reverse`, 'POST', { reason: 'bounced' });
      await expectSubjects('payment.reversed', submitted.id, [studentB]);

      const statement = `/api/v1/finance/students/${DEMO_STUDENT_ID}/statement`;
      const line = await call(system.keys.bursar, statement, 'POST', { date: '2026-10-02', description: 'Lab fees', debit: 500 });
      await expectSubjects('statement.line_added', line.id, [studentA]);
      await expectReaders(statement, [studentA], (body) => body.lines.some((l: { id: string }) => l.id === line.id));
    });

    it('accounts and categories: no one besides bursars and admins', async () => {
      const account = await call(system.keys.bursar, '/api/v1/finance/accounts', 'POST', { name: 'Subjects box', userId: studentA.userId });
      await expectSubjects('account.created', account.id, []);
      await call(system.keys.bursar, `/api/v1/finance/accounts/${account.id}`, 'PATCH', { name: 'Subjects box 2' });
      await expectSubjects('account.updated', account.id, []);
      const category = await call(system.keys.bursar, '/api/v1/finance/categories', 'POST', { name: 'Subjects' });
      await expectSubjects('category.created', category.id, []);
      await call(system.keys.bursar, `/api/v1/finance/categories/${category.id}`, 'PATCH', { name: 'Subjects 2' });
      await expectSubjects('category.updated', category.id, []);
    });

    it('a student record unlinked from its user: that user, who no longer reads it', async () => {
      await call(system.keys.bursar, `/api/v1/finance/students/${studentRowB.id}`, 'PATCH', { userId: null });
      await expectSubjects('student.updated', studentRowB.id, [studentB]);
      await expectReaders(`/api/v1/finance/students/${studentRowB.id}`, []);
    });
  });

  describe('scheduling', () => {
    let resourceId: string;
    let slots: { slotToken: string }[];
    /** Student A's appointment, booked and still on the resource's calendar after the moves test. */
    let heldId: string;

    beforeAll(async () => {
      clinic = await openClinic(system, caller, { code: 'PRM-0036' });
      [resourceId] = clinic.resourceIds;
      // A day ahead: students may still move and cancel them (their cut-offs are hours).
      slots = await freeSlots(system, clinic, new Date(Date.now() + 86_400_000));
    });

    it('setting up a clinic: no one for its location and service; the staff for its resource and schedule', async () => {
      await expectSubjects('location.enabled', clinic.locationId, []);
      await expectSubjects('service.created', clinic.serviceId, []);
      await expectSubjects('resource.created', resourceId, [clinicianA]);
      await expectSubjects('schedule.rules_replaced', resourceId, [clinicianA]);
    });

    it('appointments through their moves: the student and the staff of the resource', async () => {
      const held = await call(studentA.key, `${APPOINTMENTS}/holds`, 'POST', { slotToken: slots[0].slotToken });
      heldId = held.id;
      const path = `${APPOINTMENTS}/${held.id}`;
      await expectSubjects('appointment.held', held.id, [studentA, clinicianA]);
      await expectReaders(path, [studentA, clinicianA]);
      await call(studentA.key, `${path}/confirm`, 'POST');
      await expectSubjects('appointment.confirmed', held.id, [studentA, clinicianA]);
      await call(studentA.key, `${path}/reschedule`, 'POST', { slotToken: slots[2].slotToken });
      await expectSubjects('appointment.rescheduled', held.id, [studentA, clinicianA]);

      const booked = await call(clinicianA.key, APPOINTMENTS, 'POST', { slotToken: slots[1].slotToken, studentId: studentB.userId });
      await expectSubjects('appointment.booked', booked.id, [studentB, clinicianA]);
      await expectReaders(`${APPOINTMENTS}/${booked.id}`, [studentB, clinicianA]);
      await call(clinicianA.key, `${APPOINTMENTS}/${booked.id}/cancel`, 'POST', { reasonCode: 'prov' });
      await expectSubjects('appointment.cancelled', booked.id, [studentB, clinicianA]);
    });

    it("blocks and a schedule's override: the staff of the resource", async () => {
      const start = new Date(Date.now() + 30 * 86_400_000);
      const { block } = await caller.call(clinician(clinicianA.userId), 'createBlock', {
        resourceId,
        start: start.toISOString(),
        end: new Date(start.getTime() + 3_600_000).toISOString(),
        reason: 'training',
      });
      await expectSubjects('block.created', block.id, [clinicianA]);
      await caller.call(clinician(clinicianA.userId), 'deleteBlock', { id: block.id });
      await expectSubjects('block.deleted', block.id, [clinicianA]);

      await caller.call({ userId: DEMO_USER_IDS.admin, role: 'admin' }, 'putOverride', { scheduleId: resourceId, localDate: '2027-12-25', closed: true });
      await expectSubjects('schedule.override_set', resourceId, [clinicianA]);
    });

    it('staff taken off a resource: they are told, and its later events are no longer theirs', async () => {
      await caller.call({ userId: DEMO_USER_IDS.admin, role: 'admin' }, 'updateResource', { id: resourceId, staffUserIds: { ids: [] } });
      await expectSubjects('resource.updated', resourceId, [clinicianA]);

      await call(studentA.key, `${APPOINTMENTS}/${heldId}/cancel`, 'POST', { reasonCode: 'pat' });
      await expectSubjects('appointment.cancelled', heldId, [studentA]);
      await expectReaders(`${APPOINTMENTS}/${heldId}`, [studentA]);
    });
  });

  it('keeps the older event as it was sent: served without subjects, hashed as sent, and the chain with the new ones verifies', async () => {
    const entries = await allAuditEntries(system);
    // The first of the services' entries (the identity area's, of the run's demo users and keys, may come before it).
    const first = entries.filter((entry) => !isIdentityEntry(entry)).at(-1);
    expect(first).toMatchObject({ eventId: older.eventId, schemaVersion: SUBJECTS_VERSION - 1 });
    expect(first).not.toHaveProperty('subjects');
    expect(createHash('sha256').update(first.prevHash).update(canonicalJson(older)).digest('hex')).toBe(first.hash);
    // Every change the tests above made came after it, and carries subjects.
    expect(entries.length).toBeGreaterThan(30);
    expect(entries.filter((entry) => entry.schemaVersion >= SUBJECTS_VERSION)).toHaveLength(entries.length - 1);
    expect((await api(system.gatewayUrl, '/api/v1/audit/verify', { key: system.keys.admin })).body).toEqual({
      intact: true,
      checked: entries.length,
      lastHash: entries[0].hash,
      checkpointsChecked: expect.any(Number),
    });
  });
});
