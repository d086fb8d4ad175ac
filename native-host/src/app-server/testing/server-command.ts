/**
 * How tests start a real `tether app-server` process: `node native-host/bin/tether.mjs app-server ...` (which builds
 * the bundle), or, while the whole command cannot build yet, an esbuild bundle of this module's own entry.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const nativeHost = join(here, '../../..');
let resolved: Promise<string[]> | undefined;

/** argv prefix that runs `tether` (append `app-server --listen stdio ...` or `debug app-server ...`). */
export function tetherCommand(): Promise<string[]> {
  resolved ??= resolveCommand();
  return resolved;
}

async function resolveCommand(): Promise<string[]> {
  const bin = join(nativeHost, 'bin/tether.mjs');
  const probe = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', timeout: 120_000 });
  if (probe.status === 0) return [process.execPath, bin];
  const outfile = join(mkdtempSync(join(tmpdir(), 'tether-app-server-')), 'app-server.mjs');
  await build({
    entryPoints: [join(here, 'entry.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return [process.execPath, outfile];
}
