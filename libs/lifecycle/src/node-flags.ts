/**
 * The node flags every service runs with (tests, `npm start`; the Dockerfile
 * repeats them). V8 otherwise grows the heap long before it collects: under
 * load a service's RSS grew far past its budget with mostly garbage. Capped,
 * the old generation is collected sooner and RSS stays within budget. Smaller
 * semi-spaces than V8's default keep less resident in every service, for no
 * CPU the benchmark can tell from its noise (the bench's peak RSS by phase;
 * figures in docs/PERFORMANCE.md).
 *
 * No --enable-source-maps: Node 20 then reads and parses every loaded module's source map at start and keeps it
 * parsed, 31 of the gateway's 87 MB of heap at rest, 20 to 30 MB more RSS in each service under load, and 0.6 to
 * 1.2 s of each start. Stack traces name the bundle's lines (unminified, names kept); the maps ship beside it, and
 * NODE_OPTIONS=--enable-source-maps gives TypeScript positions when they are worth the memory.
 */
export const SERVICE_NODE_FLAGS = ['--max-old-space-size=128', '--max-semi-space-size=8'];

/**
 * The environment every service runs with, beside its own configuration (tests, `npm start`; the Dockerfile's
 * runtime stage repeats it). glibc's malloc otherwise keeps large blocks after they are freed: its mmap threshold
 * rises to the largest block freed (up to 32 MiB), and each of libuv's pool threads has an arena of its own, so
 * scrypt's block per password hash stayed resident after the hash, up to one per pool thread, and the gateway's
 * RSS rose after a few sign-ins (docs/PERFORMANCE.md). With the threshold fixed at glibc's default of 128 KiB, such
 * blocks are mapped for their use and unmapped when freed.
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };
