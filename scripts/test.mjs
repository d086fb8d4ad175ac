#!/usr/bin/env node
// Runs every check of the repository: type checking, the builds the end-to-end tests load, and every test suite.
// The last line is always "N passed, M failed" so people and CI can read the outcome at a glance.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const extraArgs = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

function step(name, command, args) {
  process.stdout.write(`\n== ${name}\n`);
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  const ok = r.status === 0;
  if (ok) passed++;
  else failed++;
  process.stdout.write(`== ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`}\n`);
  return ok;
}

const tsc = join(root, 'node_modules/typescript/bin/tsc');
for (const project of [
  'protocol/tsconfig.json',
  'protocol/tsconfig.test.json',
  'native-host/tsconfig.json',
  'extension/tsconfig.json',
  'test/tsconfig.json',
]) {
  if (existsSync(join(root, project))) step(`typecheck ${project}`, process.execPath, [tsc, '-p', project]);
}
// Formatting and lint (Biome, check mode: drift fails; `npm run format` fixes it) and the folder boundaries
// (dependency-cruiser: protocol/ is pure, extension/ and native-host/ never meet, backends/ never imports host/, no
// runtime import cycles).
step('lint (biome check)', process.execPath, [join(root, 'node_modules/@biomejs/biome/bin/biome'), 'check', '.']);
step('boundaries (dependency-cruiser)', process.execPath, [
  join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
  'protocol/src',
  'native-host/src',
  'extension/src',
  'test',
  'bench',
  '--config',
  '.dependency-cruiser.cjs',
]);
const built = step('build', 'npm', ['run', 'build']);

mkdirSync(join(root, 'test/artifacts'), { recursive: true });
const report = join(root, 'test/artifacts/vitest-report.json');
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const r = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extraArgs],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TETHER_BUILT: built ? '1' : '0' },
  },
);
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests ?? 0;
  failed += (json.numFailedTests ?? 0) + (json.numFailedTestSuites ?? 0);
  skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
} else {
  failed++;
  console.log(`vitest wrote no report (exit ${r.status ?? r.signal})`);
}
if (r.status !== 0 && failed === 0) failed++;
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
