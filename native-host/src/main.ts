import { run } from './cli';
import { CRASH_EXIT_CODE, installCrashHandlers, reportCrash } from './crash';

const crashReport = { tag: `tether ${process.pid}` };
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
