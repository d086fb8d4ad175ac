/**
 * Which command lines start `tether host`: `tether host ARGS`, or the browser's own arguments when a host manifest
 * points straight at the command (`chrome-extension://ID/` for the Chrome family, a manifest path and an add-on id for
 * Firefox). Asked by main.ts before anything else is loaded, so the host (started on every browser connection) goes
 * straight to its own code, and by cli.ts, so `run()` dispatches the same command lines the same way.
 */

/** The host's arguments when `argv` (without node and the script) starts the host, else undefined. */
export function hostArguments(argv: readonly string[]): string[] | undefined {
  const [first, ...rest] = argv;
  if (first === 'host') return rest;
  if (
    first !== undefined &&
    (first.startsWith('chrome-extension://') || (first.endsWith('.json') && rest.length === 1))
  )
    return [...argv];
  return undefined;
}
