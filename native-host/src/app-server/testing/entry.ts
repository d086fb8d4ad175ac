/** Stand-alone entry of `tether app-server` and `tether debug app-server` for tests (bundled by server-command.ts). */
import { main as debug } from '../debug';
import { main as serve } from '../cli';

const [command, ...rest] = process.argv.slice(2);
(command === 'debug' ? debug(rest) : serve(command === 'app-server' ? rest : process.argv.slice(2))).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tether: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
