#!/usr/bin/env node
// Development entry point (`npx tether`): runs the bundled host, building it first when it is missing or older than
// its sources. Installed launchers run dist/tether.mjs directly and never pay for this check.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist/tether.mjs');

function newestSourceMs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMs(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const sources = [join(root, 'src'), join(root, '../protocol/src')].filter((d) => existsSync(d));
const stale = !existsSync(dist) || sources.some((d) => newestSourceMs(d) > statSync(dist).mtimeMs);
if (stale) {
  const { buildHost } = await import('../scripts/build.mjs');
  await buildHost({ quiet: true });
}
await import(pathToFileURL(dist).href);
