/** Runs a service's main(); a failure to start is one line on stderr and exit code 1. */
export function runMain(service: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${service}: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
