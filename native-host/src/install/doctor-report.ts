/** Doctor's human-readable output: sections of ✓ / ✗ / ! / · lines, each failure with the browser's words and a fix. */

/** Details that make a failure actionable. */
export interface FailureDetail {
  /** What the extension sees in `chrome.runtime.lastError.message` (or Firefox's equivalent). */
  readonly browserSays?: string;
  /** The command (or action) that fixes it. */
  readonly fix?: string;
  /** Extra lines (e.g. the host's stderr). */
  readonly details?: readonly string[];
}

/** Collects and prints doctor's lines; counts failures for the exit status. */
export class DoctorReport {
  failures = 0;
  warnings = 0;

  constructor(private readonly out: (line: string) => void) {}

  /** Starts a section (a browser, the launcher, the config...). */
  section(title: string): void {
    this.out('');
    this.out(title);
  }

  /** A passed check. */
  ok(text: string): void {
    this.out(`  ✓ ${text}`);
  }

  /** A failed check: the browser's own error text and the fix follow on their own lines. */
  fail(text: string, detail: FailureDetail = {}): void {
    this.failures++;
    this.out(`  ✗ ${text}`);
    if (detail.browserSays) this.out(`      the browser says: "${detail.browserSays}"`);
    for (const line of detail.details ?? []) this.out(`      | ${line}`);
    if (detail.fix) this.out(`      fix: ${detail.fix}`);
  }

  /** Something that may stop Tether from working but is not a broken install. */
  warn(text: string, fix?: string): void {
    this.warnings++;
    this.out(`  ! ${text}`);
    if (fix) this.out(`      fix: ${fix}`);
  }

  /** Plain information. */
  info(text: string): void {
    this.out(`  · ${text}`);
  }

  /** The last line, and the exit status (0 when nothing failed). */
  finish(): number {
    this.out('');
    if (this.failures === 0) {
      this.out(
        `All checks passed${this.warnings ? ` (${this.warnings} warning${this.warnings > 1 ? 's' : ''})` : ''}.`,
      );
      return 0;
    }
    this.out(
      `${this.failures} problem${this.failures > 1 ? 's' : ''} found${this.warnings ? `, ${this.warnings} warning${this.warnings > 1 ? 's' : ''}` : ''}.`,
    );
    return 1;
  }
}
