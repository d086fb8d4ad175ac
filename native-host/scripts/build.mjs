#!/usr/bin/env node
// Bundles the `tether` command into ESM (dist/tether.mjs plus lazily loaded dist/chunks/): Node starts it in about
// 100 ms, where a TypeScript loader costs 300-900 ms on every browser connection.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');

// Zod bundles error messages in 60 languages (a third of dist/tether.mjs, parsed on every browser connection);
// Tether only uses the English ones, which zod registers itself.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'zod')}`)
        ? { path: join(dirname(args.importer), '../locales'), namespace: 'zod-en' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: args.path,
      loader: 'js',
    }));
  },
};

/**
 * Builds dist/tether.mjs from src/main.ts. Modules that commands import lazily (the app-server, the installer, the
 * dialect adapters) go to dist/chunks/, so `tether host`, started on every browser connection, parses only its own
 * code: its first answer came about 45 ms sooner than from one 800 KB file. dist/ is used in place, never copied.
 */
export async function buildHost({ quiet = false } = {}) {
  // The release version lives in one place, the root package.json (the extension's manifest reads it too).
  const pkg = JSON.parse(readFileSync(join(here, '../package.json'), 'utf8'));
  const result = await build({
    entryPoints: { tether: join(here, 'src/main.ts') },
    outdir: join(here, 'dist'),
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: quiet ? 'error' : 'warning',
    define: { __TETHER_VERSION__: JSON.stringify(pkg.version) },
    banner: {
      js: "import { createRequire as __tetherCreateRequire } from 'node:module'; const require = __tetherCreateRequire(import.meta.url);",
    },
    plugins: [zodEnglishOnly],
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => resolve(f));
  pruneChunks(new Set(outputs));
  writeFileList(outputs);
  if (!quiet) console.log('native-host: built dist/tether.mjs');
}

/** The name of the list of files one build wrote, beside dist/tether.mjs. */
export const FILE_LIST = 'tether.files.json';

/**
 * Lists the .mjs files this build wrote (relative to dist/), so `tether install` and the package copy this build's
 * chunks and not the older ones kept for hosts still running.
 */
function writeFileList(outputs) {
  const dist = join(here, 'dist');
  const files = outputs
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => relative(dist, f).split(sep).join('/'))
    .sort();
  const temp = join(dist, `${FILE_LIST}.tmp-${process.pid}`);
  writeFileSync(temp, `${JSON.stringify(files, null, 2)}\n`);
  renameSync(temp, join(dist, FILE_LIST));
}

/**
 * Removes chunks of earlier builds, once they are 10 minutes old: a host started just before this build may still
 * import the chunks its entry names.
 */
function pruneChunks(current) {
  const dir = join(here, 'dist/chunks');
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (!current.has(file) && Date.now() - statSync(file).mtimeMs > 10 * 60 * 1000) rmSync(file, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildHost();
}
