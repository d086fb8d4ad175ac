#!/usr/bin/env node
// Runs every benchmark in bench/ (files named *.bench.mjs), one after the other so they do not disturb each other.
// Usage: npm run bench [-- NAME...]   NAME filters by file name (e.g. `npm run bench -- codec`); other args starting
// with "--" are passed to each benchmark.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith('--'));
const passed = args.filter((a) => a.startsWith('--'));
const files = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
  .sort();
if (files.length === 0) {
  console.error(`No benchmark in bench/ matches ${filters.join(', ') || '*.bench.mjs'}`);
  process.exit(1);
}
const failed = [];
for (const file of files) {
  console.log(`\n== ${file}`);
  const r = spawnSync(process.execPath, [join(root, 'bench', file), ...passed], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed.push(`${file} (exit ${r.status ?? r.signal})`);
}
console.log(
  `\nbenchmarks: ${files.length - failed.length} ran, ${failed.length} failed${failed.length ? `: ${failed.join(', ')}` : ''}`,
);
process.exit(failed.length === 0 ? 0 : 1);
