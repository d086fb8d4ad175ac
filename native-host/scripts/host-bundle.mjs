// Keeps dist/tether.mjs in step with its sources for development entry points (`npx tether`, the benchmarks). Kept
// apart from build.mjs so that a fresh bundle costs a few stat calls, not loading esbuild.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The bundled host, as `tether` runs it. */
export const hostBundle = join(here, 'dist/tether.mjs');

function newestSourceMs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMs(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds dist/tether.mjs when it is missing or older than a source file of native-host or protocol; resolves with its path. */
export async function ensureHostBundle() {
  const sources = [join(here, 'src'), join(here, '../protocol/src')].filter((d) => existsSync(d));
  const stale = !existsSync(hostBundle) || sources.some((d) => newestSourceMs(d) > statSync(hostBundle).mtimeMs);
  if (stale) {
    const { buildHost } = await import('./build.mjs');
    await buildHost({ quiet: true });
  }
  return hostBundle;
}
