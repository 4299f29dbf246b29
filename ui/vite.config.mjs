// The memory inspector's build (npm run build): Preact pages under /ui, written to dist/ui,
// where the service serves them (src/inspector/inspector-assets.ts). Everything is bundled:
// the built pages load nothing from any other host.
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/ui/',
  // JSX through Vite's own transform, with Preact's runtime: no framework plugin needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // Evergreen browsers load modules natively; the polyfill would be dead code.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
