import { catalogueV1, DEMO_USER_IDS, POLICY_BOUNDS, schedulingV1 } from '@libs/contracts';
import { callUnary, createClient, GrpcStatus, outgoingMetadata, problemOf, type Problem, type ServiceError, type UnaryMethod } from '@libs/grpc';
import { actingAs, type RunningSystem } from '@libs/testing';

export interface Actor {
  userId: string;
  role: string;
}

export const ADMIN: Actor = { userId: DEMO_USER_IDS.admin, role: 'admin' };
export const student = (userId: string): Actor => ({ userId, role: 'student' });
export const clinician = (userId: string): Actor => ({ userId, role: 'clinician' });

type Client = schedulingV1.SchedulingServiceClient;
type Methods = {
  [K in keyof Client]: Client[K] extends UnaryMethod<infer Req, infer Res> ? (Req extends object ? [Req, Res] : never) : never;
};
type Method = { [K in keyof Methods]: Methods[K] extends never ? never : K }[keyof Methods];

/** What a refused call carries: its gRPC code, message, and problem. */
export interface Refusal {
  code: number;
  details: string;
  problem?: Problem;
}

/** Calls a scheduling instance over gRPC as a signed actor, as the gateway will. */
export class SchedulingCaller {
  private readonly client: Client;

  constructor(address: string) {
    this.client = createClient(schedulingV1.SchedulingServiceClient, address);
  }

  call<M extends Method>(actor: Actor, method: M, request: Partial<Methods[M][0]>, requestId?: string): Promise<Required<Methods[M][1]>> {
    const rpc = (this.client[method] as unknown as UnaryMethod<unknown, Methods[M][1]>).bind(this.client);
    const full = (schedulingV1 as unknown as Record<string, { fromPartial(p: unknown): unknown }>)[`${method[0].toUpperCase()}${method.slice(1)}Request`].fromPartial(request);
    // A successful answer carries every message it names (the optional fields of the generated types are its errors' absence).
    return callUnary(rpc, full, { metadata: outgoingMetadata({ acting: actingAs(actor, 'scheduling', this.client[method]), requestId }), timeoutMs: 20_000 }) as Promise<Required<Methods[M][1]>>;
  }

  /** The refusal of a call expected to fail. */
  async refusal<M extends Method>(actor: Actor, method: M, request: Partial<Methods[M][0]>): Promise<Refusal> {
    try {
      await this.call(actor, method, request);
    } catch (error) {
      const failure = error as ServiceError;
      return { code: failure.code, details: failure.details, problem: problemOf(failure) };
    }
    throw new Error(`${method} was expected to fail`);
  }

  close(): void {
    this.client.close();
  }
}

/** A premise id of the reference service's default data, by its code. */
export async function premiseId(system: RunningSystem, code: string): Promise<string> {
  const client = createClient(catalogueV1.CatalogueServiceClient, system.grpcAddress('reference'));
  try {
    const { premise } = await callUnary(client.getPremise.bind(client), { id: '', code }, { metadata: outgoingMetadata({}), timeoutMs: 10_000 });
    if (!premise) throw new Error(`no premise ${code}`);
    return premise.id;
  } finally {
    client.close();
  }
}

export interface ClinicOptions {
  code: string;
  timeZone: string;
  /** [weekday, "HH:MM", "HH:MM"] windows; every day when weekday is 0. */
  hours: [number, string, string][];
  policy?: Partial<schedulingV1.Policy>;
  durationMinutes?: number;
  stepMinutes?: number;
  bufferAfterMinutes?: number;
  staff?: string[];
  resources?: number;
}

export const TEST_POLICY: schedulingV1.Policy = {
  minNoticeMinutes: 0,
  horizonDays: 730,
  holdTtlSeconds: 300,
  cancelCutoffMinutes: 120,
  rescheduleCutoffMinutes: 120,
  checkInWindowMinutes: 30,
  noShowGraceMinutes: 15,
  // The most the bounds allow: specs that book many times as one student are not about the caps (student-caps.spec.ts is).
  maxActivePerStudent: POLICY_BOUNDS.maxActivePerStudent.max,
  maxHoldsPerStudent: POLICY_BOUNDS.maxHoldsPerStudent.max,
  // None: specs that are not about reminders should not send any (the reminder specs name theirs).
  reminders: [],
};

/**
 * Retries a call answered UNAVAILABLE ("retry shortly"), as a client should: right after start-up scheduling's
 * first call to the reference service can miss its deadline on a loaded machine.
 */
async function untilAvailable<T>(call: () => Promise<T>, attempts = 10): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if ((error as ServiceError).code !== GrpcStatus.UNAVAILABLE || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** A location with a service and its resources, open in the given hours, made the way an admin would. */
export async function setUpClinic(system: RunningSystem, caller: SchedulingCaller, options: ClinicOptions) {
  const premise = await premiseId(system, options.code);
  const { location } = await untilAvailable(() => caller.call(ADMIN, 'putLocation', { premiseId: premise, timeZone: options.timeZone }));
  const { service } = await caller.call(ADMIN, 'createService', {
    input: {
      name: `Service at ${options.code}`,
      durationMinutes: options.durationMinutes ?? 30,
      slotStepMinutes: options.stepMinutes ?? options.durationMinutes ?? 30,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: options.bufferAfterMinutes ?? 0,
      policy: { ...TEST_POLICY, ...options.policy },
    },
  });
  const resourceIds: string[] = [];
  for (let i = 0; i < (options.resources ?? 1); i += 1) {
    const { resource } = await caller.call(ADMIN, 'createResource', {
      input: { locationId: premise, kind: 'practitioner', name: `Practitioner ${i + 1}`, serviceIds: [service.id], staffUserIds: options.staff ?? [] },
    });
    const windows = options.hours.flatMap(([weekday, start, end]) =>
      (weekday === 0 ? [1, 2, 3, 4, 5, 6, 7] : [weekday]).map((day) => ({ weekday: day, start, end })),
    );
    await caller.call(ADMIN, 'putWeeklyRules', { scheduleId: resource.id, windows });
    resourceIds.push(resource.id);
  }
  return { locationId: location.premiseId, serviceId: service.id, resourceIds, zone: options.timeZone };
}
