export { metricsRegistry } from './registry';
export { startMetricsServer, type MetricsServer } from './metrics-server';
export { registerDbPoolMetrics } from './db-pool-metrics';
export { Counter, Gauge, Histogram } from 'prom-client';
export { labelledChildren } from './labelled-children';
