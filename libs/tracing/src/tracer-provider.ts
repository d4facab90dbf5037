import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Logger } from '@libs/logging';

export interface Tracing {
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers the process's tracer provider with the W3C trace-context propagator
 * and an AsyncLocalStorage context manager. It always runs, so every request
 * gets a trace id that travels on and is stored with its audit entries; spans
 * leave the process only when an OTLP endpoint is configured (off by default).
 * Without one, spans are not recorded at all (a sampler that keeps none): each
 * still gets its ids, so trace ids travel and are stored as before, but no
 * attributes, events or timings are collected for nobody (a visible share of
 * a service's CPU per call in the bench's profiles). Such spans travel as not
 * sampled (traceparent flags 00).
 */
export function initTracing(service: string, options: { otlpEndpoint?: string; logger: Logger }): Tracing {
  const spanProcessors = options.otlpEndpoint
    ? [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` }))]
    : [];
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors,
    ...(options.otlpEndpoint ? {} : { sampler: new AlwaysOffSampler() }),
  });
  provider.register();
  options.logger.info(
    { otlpEndpoint: options.otlpEndpoint ?? null },
    options.otlpEndpoint ? 'exporting traces over OTLP' : 'trace export is off (OTEL_EXPORTER_OTLP_ENDPOINT unset)',
  );
  return {
    shutdown: () => provider.shutdown().catch((error: unknown) => options.logger.warn({ err: error }, 'trace export failed at shutdown')),
  };
}
