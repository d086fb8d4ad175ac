/**
 * Rate limit for reports of one kind (a backend's garbage lines, refused messages): the one the in-process host and
 * the daemon's shared agents both use.
 */
/** Lets the first `burst` reports of a kind through, then at most one a second, counting those it held back. */
export class ReportLimit {
  private count = 0;
  private held = 0;
  private lastAt = 0;

  constructor(
    private readonly burst: number,
    private readonly now: () => number,
  ) {}

  /** Undefined when this report must be dropped; else how many were dropped since the last one let through. */
  admit(): number | undefined {
    this.count++;
    const now = this.now();
    if (this.count > this.burst && now - this.lastAt < 1000) {
      this.held++;
      return undefined;
    }
    const held = this.held;
    this.held = 0;
    this.lastAt = now;
    return held;
  }
}
