/**
 * Two builds from one source: `vite build` -> dist/chrome, `vite build --mode firefox` -> dist/firefox.
 * No minification of names matters here, but source maps help when reading a user's stack trace.
 */
import { crx } from '@crxjs/vite-plugin';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { buildManifest, type TargetBrowser } from './manifest.config.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * crx exposes `?iife` scripts as web-accessible resources, which lets any web page detect the extension. Ours is
 * only injected with chrome.scripting from the worker, which needs no such entry, so it is removed.
 */
function dropWebAccessibleResources(): Plugin {
  return {
    name: 'tether:drop-web-accessible-resources',
    enforce: 'post',
    // crx writes manifest.json itself after the bundle is generated, so the file is patched once written.
    writeBundle(options) {
      const file = `${options.dir ?? ''}/manifest.json`;
      if (!existsSync(file)) return;
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { web_accessible_resources?: unknown };
      delete manifest.web_accessible_resources;
      writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}

export default defineConfig(({ mode }) => {
  const browser: TargetBrowser = mode === 'firefox' ? 'firefox' : 'chrome';
  return {
    root,
    // Preact through vite's built-in JSX transform (automatic runtime).
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    plugins: [crx({ manifest: buildManifest(browser) as never, browser }), dropWebAccessibleResources()],
    build: {
      outDir: `dist/${browser}`,
      emptyOutDir: true,
      sourcemap: true,
      target: 'es2022',
      chunkSizeWarningLimit: 1024,
      // crx follows neither sidebar_action nor a popup the manifest does not name (the worker opens it from the
      // button's menu), so those pages are explicit inputs.
      rollupOptions: {
        input: {
          popup: `${root}src/popup/index.html`,
          ...(browser === 'firefox' ? { sidepanel: `${root}src/sidepanel/index.html` } : {}),
        },
      },
    },
  };
});
