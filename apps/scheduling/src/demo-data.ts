import type { Sequelize } from 'sequelize';
import { DEMO_SCHEDULING_IDS, DEMO_USER_IDS, POLICY_BOUNDS, REMINDER_LIMITS } from '@libs/contracts';
import type { Logger } from '@libs/logging';
import type { Policy } from './appointments/policy';
import type { PremiseDirectory } from './locations/premise-directory';

/**
 * Starter schedules for local use, so that `npm start` is bookable at once: three sample premises of the
 * reference service's default data (one in a zone with daylight saving, Europe/London; one without,
 * Africa/Nairobi), their resources staffed by the demo clinician, services and weekly hours. Fixed ids;
 * inserted only when missing, never in production. Seeding is not a user's change, so it writes no audit
 * events. Premises are found by code over gRPC: scheduling never reads the reference database.
 */
const STANDARD_POLICY: Policy = {
  minNoticeMinutes: 60,
  horizonDays: 60,
  holdTtlSeconds: 300,
  cancelCutoffMinutes: 120,
  rescheduleCutoffMinutes: 120,
  checkInWindowMinutes: 30,
  noShowGraceMinutes: 15,
  maxActivePerStudent: POLICY_BOUNDS.maxActivePerStudent.default,
  maxHoldsPerStudent: POLICY_BOUNDS.maxHoldsPerStudent.default,
  reminders: [...REMINDER_LIMITS.default],
};

const { services, resources } = DEMO_SCHEDULING_IDS;

export const DEMO_SERVICES = [
  { id: services.pharmacistConsultation, name: 'Pharmacist consultation', duration: 20, step: 20, before: 0, after: 5, policy: STANDARD_POLICY },
  { id: services.vaccination, name: 'Vaccination', duration: 15, step: 15, before: 0, after: 0, policy: STANDARD_POLICY },
  { id: services.walkIn, name: 'Walk-in consultation', duration: 30, step: 30, before: 0, after: 0, policy: { ...STANDARD_POLICY, minNoticeMinutes: 0 } },
] as const;

const [CONSULTATION, VACCINATION, WALK_IN] = DEMO_SERVICES.map((service) => service.id);
const WEEKDAYS = [1, 2, 3, 4, 5];

export const DEMO_LOCATIONS = [
  {
    code: 'PRM-0002', // Sample Borough High Street Pharmacy, London
    timeZone: 'Europe/London',
    resources: [
      {
        id: resources.pharmacist,
        kind: 'practitioner',
        name: 'Pharmacist on duty',
        services: [CONSULTATION, VACCINATION],
        hours: [...WEEKDAYS.flatMap((d) => [[d, '09:00', '12:30'], [d, '13:30', '17:30']]), [6, '09:00', '13:00']],
      },
      { id: resources.consultationRoom, kind: 'room', name: 'Consultation room', services: [VACCINATION], hours: WEEKDAYS.map((d) => [d, '10:00', '16:00']) },
    ],
  },
  {
    code: 'PRM-0007', // Sample Deansgate Walk-in Clinic, Manchester
    timeZone: 'Europe/London',
    resources: [
      { id: resources.dutyNurse, kind: 'practitioner', name: 'Duty nurse', services: [WALK_IN, VACCINATION], hours: [1, 2, 3, 4, 5, 6, 7].map((d) => [d, '08:00', '20:00']) },
    ],
  },
  {
    code: 'PRM-0001', // Sample Bamburi Health Centre Clinic, Mombasa
    timeZone: 'Africa/Nairobi',
    resources: [
      {
        id: resources.clinicalOfficer,
        kind: 'practitioner',
        name: 'Clinical officer',
        services: [CONSULTATION, VACCINATION],
        hours: [...WEEKDAYS.map((d) => [d, '08:00', '17:00']), [6, '09:00', '13:00']],
      },
    ],
  },
] as const;

const insertMissing = (table: string, columns: string, types: string) =>
  `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM jsonb_to_recordset($1::jsonb) AS r(${types}) ON CONFLICT DO NOTHING`;

/** Seeds what is missing; resolves false when a premise is not known (yet) to the reference service. */
export async function seedDemoData(sequelize: Sequelize, premises: PremiseDirectory): Promise<boolean> {
  const seed = (sql: string, rows: object[]) => sequelize.query(sql, { bind: [JSON.stringify(rows)] });
  await seed(
    insertMissing('services', 'id, name, duration_minutes, slot_step_minutes, buffer_before_minutes, buffer_after_minutes, policy',
      'id uuid, name text, duration_minutes int, slot_step_minutes int, buffer_before_minutes int, buffer_after_minutes int, policy jsonb'),
    DEMO_SERVICES.map((s) => ({ id: s.id, name: s.name, duration_minutes: s.duration, slot_step_minutes: s.step, buffer_before_minutes: s.before, buffer_after_minutes: s.after, policy: s.policy })),
  );
  let complete = true;
  for (const location of DEMO_LOCATIONS) {
    const premise = await premises.find({ code: location.code });
    if (!premise) {
      complete = false;
      continue;
    }
    await seed(insertMissing('locations', 'premise_id, name, time_zone', 'premise_id text, name text, time_zone text'), [
      { premise_id: premise.id, name: premise.name, time_zone: location.timeZone },
    ]);
    const resources = location.resources;
    await seed(insertMissing('resources', 'id, location_id, kind, name', 'id uuid, location_id text, kind text, name text'),
      resources.map((r) => ({ id: r.id, location_id: premise.id, kind: r.kind, name: r.name })));
    await seed(insertMissing('resource_services', 'resource_id, service_id', 'resource_id uuid, service_id uuid'),
      resources.flatMap((r) => r.services.map((service) => ({ resource_id: r.id, service_id: service }))));
    await seed(insertMissing('staffing', 'resource_id, user_id', 'resource_id uuid, user_id text'),
      resources.map((r) => ({ resource_id: r.id, user_id: DEMO_USER_IDS.clinician })));
    await seed(insertMissing('weekly_windows', 'resource_id, weekday, start_time, end_time', 'resource_id uuid, weekday smallint, start_time time, end_time time'),
      resources.flatMap((r) => r.hours.map(([weekday, start, end]) => ({ resource_id: r.id, weekday, start_time: start, end_time: end }))));
  }
  return complete;
}

/**
 * Seeds in the background, again every few seconds until the reference service (which may start after this
 * one) has answered for every premise; the service serves meanwhile. Returns a stop function.
 */
export function seedDemoDataWhenReady(sequelize: Sequelize, premises: PremiseDirectory, logger: Logger, retryMs = 2_000): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const attempt = () => {
    seedDemoData(sequelize, premises).then(
      (complete) => {
        if (complete) return logger.info('demo schedules are in place');
        logger.warn('some demo premises are unknown to the reference service; their schedules are left out');
      },
      (error: unknown) => {
        logger.info({ cause: String((error as Error).message ?? error) }, 'cannot seed the demo schedules yet; retrying');
        if (!stopped) timer = setTimeout(attempt, retryMs);
      },
    );
  };
  attempt();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
