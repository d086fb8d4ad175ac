/**
 * What people are told when a backend writes a stdout line that is not a JSON message: the same words whether the
 * host serves the backend in-process or the daemon shares it between browsers, and as often: a backend that writes
 * its logs to stdout must not flood every browser with one report a line.
 */

/** Garbage lines reported one by one before their reports are limited to one a second (see ReportLimit). */
export const GARBAGE_REPORT_BURST = 5;

/** The report for a dropped line that began with `head`; `held` more such lines were dropped since the last report. */
export function garbageLineReport(backendId: string, head: Buffer, held = 0): string {
  const more = held > 0 ? ` (${held} more such lines were dropped since the last report)` : '';
  return (
    `The "${backendId}" backend wrote a line that is not a JSON message; it was dropped${more}. ` +
    `A backend must write only JSON messages on stdout, one per line (logs go to stderr). The line began: ${JSON.stringify(head.subarray(0, 200).toString('utf8'))}`
  );
}
