/**
 * The node flags every service runs with (tests, `npm start`; the Dockerfile
 * repeats them). V8 otherwise grows the heap long before it collects: under
 * load a service's RSS passed 250 MB of mostly garbage. Capped, the old
 * generation is collected sooner and RSS stays within 200 MB (docs/PERFORMANCE.md).
 */
export const SERVICE_NODE_FLAGS = ['--enable-source-maps', '--max-old-space-size=128', '--max-semi-space-size=16'];
