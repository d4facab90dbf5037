/**
 * The node flags every service runs with (tests, `npm start`; the Dockerfile
 * repeats them). V8 otherwise grows the heap long before it collects: under
 * load a service's RSS passed 250 MB of mostly garbage. Capped, the old
 * generation is collected sooner and RSS stays within 200 MB (docs/PERFORMANCE.md).
 * A young generation of 8 MB semi-spaces instead of 16 kept 15 MB less in
 * every service, for no CPU the benchmark could tell from its noise.
 */
export const SERVICE_NODE_FLAGS = ['--enable-source-maps', '--max-old-space-size=128', '--max-semi-space-size=8'];

/**
 * The environment every service runs with, beside its own configuration (tests, `npm start`; the Dockerfile's
 * runtime stage repeats it). glibc's malloc otherwise keeps large blocks after they are freed: its mmap threshold
 * rises to the largest block freed (up to 32 MiB), and each of libuv's pool threads has an arena of its own, so
 * scrypt's 16 MiB per password hash stayed resident after the hash, up to one per pool thread, and the gateway's
 * RSS rose by 60–130 MB after a few sign-ins. With the threshold fixed at glibc's default of 128 KiB, such
 * blocks are mapped for their use and unmapped when freed.
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };
