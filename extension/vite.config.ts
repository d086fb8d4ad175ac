/**
 * Two builds from one source: `vite build` -> dist/chrome, `vite build --mode firefox` -> dist/firefox.
 * No minification of names matters here, but source maps help when reading a user's stack trace.
 */
import { crx } from '@crxjs/vite-plugin';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { buildManifest, type TargetBrowser } from './manifest.config';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig(({ mode }) => {
  const browser: TargetBrowser = mode === 'firefox' ? 'firefox' : 'chrome';
  return {
    root,
    // Preact through vite's built-in JSX transform (automatic runtime).
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    plugins: [crx({ manifest: buildManifest(browser) as never, browser })],
    build: {
      outDir: `dist/${browser}`,
      emptyOutDir: true,
      sourcemap: true,
      target: 'es2022',
      chunkSizeWarningLimit: 1024,
      rollupOptions:
        browser === 'firefox'
          ? // crx does not follow sidebar_action, so its page is an explicit input.
            { input: { sidepanel: `${root}src/sidepanel/index.html` } }
          : undefined,
    },
  };
});
