/**
 * The entry point of dist/tether.mjs. `tether host`, which every browser connection starts, is loaded with this file
 * (host/cli.ts and what its relay needs, in one wave of modules) and run at once; every other command goes through
 * cli.ts, imported only then, which loads its command's module lazily.
 */
import { CRASH_EXIT_CODE, installCrashHandlers, reportCrash } from './crash';
import { hostArguments } from './host/argv';
import { main as host } from './host/cli';
import { daemonLogFile } from './paths';

const argv = process.argv.slice(2);
// A daemon's crash belongs in its own log, where `tether daemon status` and doctor point.
const crashReport =
  argv[0] === 'daemon' ? { tag: `daemon ${process.pid}`, file: daemonLogFile() } : { tag: `tether ${process.pid}` };
installCrashHandlers(crashReport);

const hostArgs = hostArguments(argv);
(hostArgs ? host(hostArgs) : import('./cli').then(({ run }) => run(argv))).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    reportCrash(crashReport, `tether ${argv.slice(0, 1).join(' ')} failed`, error);
    process.exitCode = CRASH_EXIT_CODE;
  },
);
