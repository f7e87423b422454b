// Runs the vitest example on its own: `npx vitest run --config docs/examples/vitest.config.mjs`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The cache stays in the repository's node_modules, not beside the examples.
  cacheDir: new URL('../../node_modules/.vite-docs-examples', import.meta.url).pathname,
  test: { root: new URL('.', import.meta.url).pathname, include: ['vitest.test.mjs'] },
});
