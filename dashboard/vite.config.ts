// The operator dashboard: built into dist/dashboard and served by the API process at /dashboard
// (docs/dashboard.md). The build prints the first page's JavaScript, gzipped, and fails above
// 250 KB.
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const FIRST_PAGE_LIMIT_BYTES = 250 * 1024;

/** Sums the entry chunk and every chunk it imports statically (what the first page loads). */
function firstPageBudget(): Plugin {
  return {
    name: 'first-page-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((item) => item.type === 'chunk' && item.isEntry);
      if (!entry || entry.type !== 'chunk') return;
      const seen = new Set<string>();
      const visit = (fileName: string): void => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        const chunk = bundle[fileName];
        if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
      };
      visit(entry.fileName);
      let gzipped = 0;
      for (const fileName of seen) {
        const chunk = bundle[fileName];
        if (chunk?.type === 'chunk') gzipped += gzipSync(chunk.code, { level: 9 }).length;
      }
      const kb = (gzipped / 1024).toFixed(1);
      console.log(`dashboard: first page JavaScript ${kb} KB gzipped (limit ${FIRST_PAGE_LIMIT_BYTES / 1024} KB)`);
      if (gzipped > FIRST_PAGE_LIMIT_BYTES) this.error(`first page JavaScript is ${kb} KB gzipped, over the 250 KB limit`);
    },
  };
}

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: '/dashboard/',
  plugins: [react(), firstPageBudget()],
  build: {
    outDir: new URL('../dist/dashboard', import.meta.url).pathname,
    emptyOutDir: true,
    // No inline scripts or styles anywhere: the page is served with script-src 'self'; style-src 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});
