/**
 * Loads the TypeScript test-support modules (Chromium launcher, demo server, page helpers) from plain Node scripts
 * (`npm start`, benchmarks): Node 20 cannot strip types, so they are bundled once with esbuild into node_modules/.cache
 * (inside the repository, so the bundle resolves playwright-core from its node_modules).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The repository root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Bundles and imports test/support; returns its exports and a cleanup function. */
export async function loadSupport() {
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const outdir = mkdtempSync(join(root, 'node_modules/.cache/tether-support-'));
  const outfile = join(outdir, 'support.mjs');
  await build({
    stdin: {
      contents:
        "export * from './browser'; export * from './daemons'; export * from './demo-server'; export * from './extension-pages';",
      resolveDir: join(root, 'test/support'),
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    external: ['playwright-core'],
    // browser.ts finds the repository from its own location.
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(root, 'test/support/browser.ts')).href) },
    logLevel: 'error',
  });
  const mod = await import(pathToFileURL(outfile).href).catch((error) => {
    if (!String(error).includes('playwright-core')) throw error;
    throw new Error(`playwright-core is missing: run npm install in ${root}`, { cause: error });
  });
  return { mod, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
}
