import fc from 'fast-check';
import { DEMO_USER_IDS } from '@libs/contracts';
import { HealthProbe } from '@libs/grpc';
import { startSystem, type RunningSystem } from '@libs/testing';
import { GRPC_SERVICE_NAMES, SERVICE_NAMES, type ServiceName } from '@libs/topology';
import { hostileRequests, operationCount, type HostileRequest, type Knowledge, type OpenApiDocument } from './hostile-requests';
import { checkAgainstContract } from './contract';
import { api, DEMO_ACCOUNT_ID, DEMO_CATEGORY_ID, validTransaction } from './http';
import { DEMO as SCHEDULING_DEMO, demoLocations } from './scheduling-rest/rest-client';

/**
 * Generated hostile requests across every operation of /openapi.json, with the
 * keys of every role. HOSTILE_REQUESTS sets how many (a few thousand under
 * npm test; the issue's acceptance run used 10,000), HOSTILE_SEED replays a run.
 */
const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 3_000);
const SEED = Number(process.env.HOSTILE_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 4;
const BATCH = 100;

interface Outcome {
  request: HostileRequest;
  status: number;
  contentType: string | null;
  text: string;
}

async function send(baseUrl: string, request: HostileRequest): Promise<Outcome> {
  try {
    const response = await fetch(`${baseUrl}${request.url}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    return { request, status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
  } catch (error) {
    // No answer at all: the connection was refused or reset, or nothing came back in time.
    return { request, status: 0, contentType: null, text: String((error as Error).cause ?? error) };
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What is wrong with an answer, if anything: no answer, a 5xx, or a 4xx that is not a problem. */
function faultOf({ status, contentType, text }: Outcome): string | undefined {
  // A body over the limit, refused unread, is answered too: the connection's close lingers until the body has
  // arrived (libs/http-problems, closeAfterAnswer), so a client still writing it reads the answer, not a reset.
  if (status === 0) return `no answer (${text})`;
  if (status >= 500) return `${status}`;
  // 431: Node's HTTP parser refuses an oversized head before the gateway sees it.
  if (status < 400 || status === 431) return undefined;
  // A FHIR operation asked for FHIR answers its errors as OperationOutcome (docs/REFERENCE.md).
  if (/^application\/fhir\+json/.test(contentType ?? '')) {
    const outcome = parsed(text) as { resourceType?: unknown; issue?: { diagnostics?: unknown }[] } | undefined;
    return outcome?.resourceType === 'OperationOutcome' && typeof outcome.issue?.[0]?.diagnostics === 'string' ? undefined : `${status} with a malformed OperationOutcome`;
  }
  if (!/^application\/problem\+json/.test(contentType ?? '')) return `${status} as ${contentType}`;
  const body = parsed(text) as { status?: unknown; detail?: unknown } | undefined;
  return body?.status === status && typeof body.detail === 'string' ? undefined : `${status} with a malformed problem`;
}

/**
 * Whether the answer is one /openapi.json documents for the operation. A hostile id of '..' makes
 * the URL name an undocumented path, which may be refused with any problem (the body is read before routing).
 */
async function contractFaultOf(baseUrl: string, { request, status, contentType, text }: Outcome): Promise<string | undefined> {
  // Refusals any operation may give, whether or not it documents them: an oversized head (431) and a rate limit (429);
  // and no answer at all, which faultOf accepts only for the oversized body.
  if (status === 431 || status === 429 || status === 0) return undefined;
  // NDJSON (a bulk download) is text of many JSON values, documented as such.
  const body = /json/.test(contentType ?? '') && !/ndjson/.test(contentType ?? '') ? parsed(text) : text;
  try {
    await checkAgainstContract(baseUrl, request.method, request.url, status, contentType, body);
    return undefined;
  } catch (error) {
    const message = (error as Error).message;
    return status >= 400 && message.includes('no operation in /openapi.json matches') ? undefined : `contract: ${message.slice(0, 300)}`;
  }
}

const describeRequest = ({ method, url, headers, body }: HostileRequest) =>
  `${method} ${url.slice(0, 300)} headers=${JSON.stringify(headers).slice(0, 300)} body=${(body ?? '').slice(0, 200)}`;

describe('every operation of /openapi.json under generated hostile requests', () => {
  let system: RunningSystem;
  let document: OpenApiDocument;
  // The development demo records (apps/finance and apps/scheduling demo data), and catalogue ids that exist.
  const demo = { student: '00000000-0000-4000-8000-00000000e001', registration: '00000000-0000-4000-8000-00000000b001' };
  const schedulingIds = Object.values(SCHEDULING_DEMO);
  const knowledge: Knowledge = {
    keys: [],
    ids: [DEMO_ACCOUNT_ID, DEMO_CATEGORY_ID, demo.student, demo.registration, '00000000-0000-4000-8000-00000000f001', '1', '2', '100', ...schedulingIds],
    idsFor: {
      accountId: [DEMO_ACCOUNT_ID],
      categoryId: [DEMO_CATEGORY_ID],
      studentId: [demo.student],
      registrationNumberId: [demo.registration],
      userId: Object.values(DEMO_USER_IDS),
      resourceId: [SCHEDULING_DEMO.nurse, SCHEDULING_DEMO.pharmacist],
      serviceIds: [SCHEDULING_DEMO.walkIn],
      staffUserIds: [DEMO_USER_IDS.clinician],
    },
    cursors: [],
  };
  const pids = new Map<ServiceName, number | undefined>();

  beforeAll(async () => {
    system = await startSystem();
    for (const service of SERVICE_NAMES) pids.set(service, system.pid(service));
    knowledge.keys.push(...Object.values(system.keys));
    document = (await api(system.gatewayUrl, '/openapi.json')).body as OpenApiDocument;
    // Real records and cursors, to use as they are and to damage a character at a time.
    const created = await api(system.gatewayUrl, '/api/v1/transactions', { method: 'POST', key: system.keys.bursar, body: validTransaction() });
    knowledge.ids.push(created.body.id);
    await demoLocations(system);
    for (const path of ['/api/v1/diseases', '/api/v1/labs', '/dosages?n=a&b=1', '/api/v1/drugs', '/api/v1/categories', '/api/v1/conditions', '/api/v1/premises', '/api/v1/scheduling/locations?limit=1', '/api/v1/scheduling/services?limit=1']) {
      const { body } = await api(system.gatewayUrl, path, { key: system.keys.reader });
      if (typeof body?.nextCursor === 'string') knowledge.cursors.push(body.nextCursor);
    }
  }, 90_000);
  afterAll(() => system?.shutdown());

  it(`answers ${REQUESTS} of them with no 5xx, a problem for every 4xx, and no process exits`, async () => {
    expect(knowledge.cursors.length).toBeGreaterThan(5);
    const arbitrary = hostileRequests(document, knowledge);
    const histogram = new Map<number, number>();
    const faults: string[] = [];
    let sent = 0;
    const started = Date.now();

    const worker = async (first: number) => {
      for (let batch = first; batch * BATCH < REQUESTS; batch += CONCURRENCY) {
        const requests = fc.sample(arbitrary, { numRuns: Math.min(BATCH, REQUESTS - batch * BATCH), seed: SEED + batch });
        for (const request of requests) {
          const outcome = await send(system.gatewayUrl, request);
          sent += 1;
          histogram.set(outcome.status, (histogram.get(outcome.status) ?? 0) + 1);
          const fault = faultOf(outcome) ?? (await contractFaultOf(system.gatewayUrl, outcome));
          if (fault) faults.push(`${fault}: ${describeRequest(request)} → ${outcome.text.slice(0, 300)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => worker(i)));

    const exited = SERVICE_NAMES.filter((service) => system.pid(service) !== pids.get(service));
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `hostile HTTP run: ${sent} requests over ${operationCount(document)} operations in ${seconds.toFixed(1)} s (seed ${SEED}); ` +
        `statuses ${JSON.stringify(Object.fromEntries([...histogram].sort(([a], [b]) => a - b)))}; ` +
        `${faults.length} faults; exited: ${exited.join(', ') || 'none'}`,
    );
    expect(faults.slice(0, 10)).toEqual([]);
    expect(exited).toEqual([]);
    expect(sent).toBe(REQUESTS);
  }, 60_000 + REQUESTS * 100);

  it('leaves every process up and serving ordinary requests', async () => {
    for (const service of SERVICE_NAMES) expect(system.pid(service)).toBe(pids.get(service));
    for (const service of GRPC_SERVICE_NAMES) {
      const probe = new HealthProbe(system.grpcAddress(service));
      try {
        expect(await probe.check(5_000)).toBe('SERVING');
      } finally {
        probe.close();
      }
    }
    expect((await api(system.gatewayUrl, '/api/v1/labs?n=potassium', { key: system.keys.reader })).status).toBe(200);
  });
});
