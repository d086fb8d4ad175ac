#!/usr/bin/env node
// Bundles the `tether` command into one ESM file (dist/tether.mjs): Node starts it in about 100 ms,
// where a TypeScript loader costs 300-900 ms on every browser connection.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');

// Zod bundles error messages in 60 languages (a third of dist/tether.mjs, parsed on every browser connection);
// Tether only uses the English ones, which zod registers itself.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'zod')}`) ? { path: join(dirname(args.importer), '../locales'), namespace: 'zod-en' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: args.path,
      loader: 'js',
    }));
  },
};

/** Builds dist/tether.mjs from src/main.ts. */
export async function buildHost({ quiet = false } = {}) {
  const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
  await build({
    entryPoints: [join(here, 'src/main.ts')],
    outfile: join(here, 'dist/tether.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: quiet ? 'error' : 'warning',
    define: { __TETHER_VERSION__: JSON.stringify(pkg.version) },
    banner: { js: "import { createRequire as __tetherCreateRequire } from 'node:module'; const require = __tetherCreateRequire(import.meta.url);" },
    plugins: [zodEnglishOnly],
  });
  if (!quiet) console.log('native-host: built dist/tether.mjs');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildHost();
}
