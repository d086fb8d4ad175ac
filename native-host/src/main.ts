import { run } from './cli';
import { CRASH_EXIT_CODE, installCrashHandlers, reportCrash } from './crash';
import { daemonLogFile } from './paths';

// A daemon's crash belongs in its own log, where `tether daemon status` and doctor point.
const crashReport =
  process.argv[2] === 'daemon'
    ? { tag: `daemon ${process.pid}`, file: daemonLogFile() }
    : { tag: `tether ${process.pid}` };
installCrashHandlers(crashReport);

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    reportCrash(crashReport, `tether ${process.argv.slice(2, 3).join(' ')} failed`, error);
    process.exitCode = CRASH_EXIT_CODE;
  },
);
