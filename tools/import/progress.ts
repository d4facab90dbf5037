/**
 * A one-line progress bar on stderr: share of the file read, rows, rows/s and
 * rejects. Redrawn in place on a terminal; elsewhere (CI logs) only the final
 * line is written, so logs do not fill with carriage returns.
 */
export class ProgressLine {
  private readonly started = Date.now();
  private bytes = 0;
  private lastDraw = 0;

  constructor(
    private readonly label: string,
    private readonly totalBytes: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  addBytes(count: number): void {
    this.bytes += count;
  }

  update(rows: number, rejected: number): void {
    const now = Date.now();
    if (!this.stream.isTTY || now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.stream.write(`\r${this.render(rows, rejected)}\x1b[K`);
  }

  finish(rows: number, rejected: number): void {
    this.bytes = this.totalBytes;
    const line = this.render(rows, rejected);
    this.stream.write(this.stream.isTTY ? `\r${line}\x1b[K\n` : `${line}\n`);
  }

  private render(rows: number, rejected: number): string {
    const share = this.totalBytes > 0 ? Math.min(1, this.bytes / this.totalBytes) : 1;
    const width = 24;
    const filled = Math.round(share * width);
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    return (
      `${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(share * 100)).padStart(3)}% ` +
      `${rows.toLocaleString('en')} rows, ${Math.round(rows / seconds).toLocaleString('en')} rows/s, ` +
      `${rejected.toLocaleString('en')} rejected, ${seconds.toFixed(1)} s`
    );
  }
}
