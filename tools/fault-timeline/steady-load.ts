/** One request of the steady load: when it left and came back (ms since the load began), and what it got. */
export interface Sample {
  kind: string;
  sentMs: number;
  doneMs: number;
  status: number;
  /** For a 503: whether the gateway's breaker refused it without calling, or the upstream answered it. */
  breakerOpen: boolean;
}

export interface LoadStream {
  kind: string;
  /** Requests a second, sent on schedule whatever the answers (open loop), as independent clients do. */
  perSecond: number;
  request: (sequence: number) => { path: string; method?: string; body?: unknown };
}

export interface SteadyLoad {
  readonly startedAt: number;
  /** Stops sending and resolves with every sample once the requests still out have come back. */
  stop(): Promise<Sample[]>;
}

const TICK_MS = 5;

/**
 * Drives the gateway at a fixed rate per stream. An open loop matters here: a
 * closed loop (send after each answer) slows down when answers are slow and
 * speeds up when they fail fast, which would hide exactly the periods measured.
 */
export function startSteadyLoad(gatewayUrl: string, key: string, streams: LoadStream[]): SteadyLoad {
  const startedAt = Date.now();
  const samples: Sample[] = [];
  const pending = new Set<Promise<void>>();
  const sent = streams.map(() => 0);

  const send = async (stream: LoadStream, sequence: number) => {
    const { path, method = 'GET', body } = stream.request(sequence);
    const sentMs = Date.now() - startedAt;
    let status = 0;
    let breakerOpen = false;
    try {
      const response = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      status = response.status;
      const text = await response.text();
      breakerOpen = status === 503 && text.includes('calls are paused');
    } catch {
      status = 0; // no HTTP answer at all
    }
    samples.push({ kind: stream.kind, sentMs, doneMs: Date.now() - startedAt, status, breakerOpen });
  };

  const timer = setInterval(() => {
    const elapsedMs = Date.now() - startedAt;
    streams.forEach((stream, i) => {
      while (sent[i] < (elapsedMs * stream.perSecond) / 1000) {
        const request = send(stream, sent[i]);
        sent[i] += 1;
        pending.add(request);
        void request.finally(() => pending.delete(request));
      }
    });
  }, TICK_MS);

  return {
    startedAt,
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return samples.sort((a, b) => a.sentMs - b.sentMs);
    },
  };
}
