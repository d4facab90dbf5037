import { collectDefaultMetrics, register } from 'prom-client';

let defaultsCollected = false;

/**
 * The process's one registry (prom-client's global one), so a lib can record
 * into it without being handed it. Process metrics (CPU, memory, event loop
 * lag) are collected once per process.
 */
export function metricsRegistry(): typeof register {
  if (!defaultsCollected) {
    collectDefaultMetrics({ register });
    defaultsCollected = true;
  }
  return register;
}
