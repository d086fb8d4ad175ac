/** Doctor's daemon section: what the per-user daemon is doing, in a user's words, and what fixed a stale one. */
import type { DaemonInspection } from '../daemon/inspect';
import { formatUptime } from '../daemon/inspect';
import type { DoctorReport } from './doctor-report';

/** Reports `found` (see inspectDaemon); `command` is how the user runs `tether`, for the fix lines. */
export function reportDaemon(
  report: DoctorReport,
  found: DaemonInspection,
  context: { readonly command: string; readonly tetherVersion: string; readonly socket: string },
): void {
  report.section('Daemon (keeps turns running while the browser is closed)');
  switch (found.state) {
    case 'running': {
      const s = found.status;
      report.ok(
        `running: pid ${s.pid}, version ${s.version}, up ${formatUptime(s.uptimeMs)}, socket ${s.socket}; ` +
          `${s.clients} browser connection${s.clients === 1 ? '' : 's'}, ${s.runningTurns} running turn${s.runningTurns === 1 ? '' : 's'}`,
      );
      for (const c of s.connections ?? [])
        report.info(
          c.mcpSocket === undefined
            ? `${c.browser} (connection ${c.id}): its MCP endpoint for \`${context.command} mcp\` is still opening`
            : `${c.browser} (connection ${c.id}): MCP endpoint ${c.mcpSocket} (\`${context.command} mcp --browser ${c.browser}\`)`,
        );
      report.info(
        `turns keep running in it while the browser is closed; it exits after ${Math.round(s.idleExitMs / 60_000)} min ` +
          `with no browser connected and no running turn; log ${s.log}`,
      );
      report.info(
        `stop it with \`${context.command} daemon stop\` (interrupts running turns); to run without it, set ` +
          '"daemon": {"enabled": false} in the config file or TETHER_DAEMON=0 in the browser\'s environment',
      );
      if (s.version !== context.tetherVersion)
        report.warn(
          `the daemon runs version ${s.version} and this is ${context.tetherVersion}: the next browser connection replaces it once no turn runs`,
          `${context.command} daemon restart (interrupts ${s.runningTurns} running turn${s.runningTurns === 1 ? '' : 's'})`,
        );
      return;
    }
    case 'not-running':
      report.info(`not running (socket ${context.socket}); the browser's host starts it when the extension connects`);
      return;
    case 'stale':
      for (const leftover of found.leftovers) report.info(`left behind by a daemon that was killed: ${leftover}`);
      for (const fixed of found.fixed) report.ok(fixed);
      if (found.fixed.length < found.leftovers.length)
        report.warn(
          'not every leftover could be removed; the next daemon recovers them itself',
          `${context.command} daemon status`,
        );
      else report.info('not running now; the next browser connection starts it afresh');
      return;
    case 'unresponsive':
      report.fail(
        `${found.pid === undefined ? 'a daemon' : `pid ${found.pid}`} holds the daemon's lock but does not answer on ${context.socket} (${found.reason})`,
        {
          fix:
            found.pid === undefined
              ? `wait a few seconds and run ${context.command} doctor again`
              : `stop it (kill ${found.pid}), then run ${context.command} doctor again`,
        },
      );
      return;
  }
}
