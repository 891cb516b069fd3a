import { defineConfig } from 'tsup';

// One ESM bundle; workspace packages are compiled in, npm dependencies stay external.
export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: [/^@rpm\//],
});
