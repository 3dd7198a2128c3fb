import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The dev server proxies the API and the WebSocket to a local yoo-server (YOO_SERVER, default :8080).
const server = process.env.YOO_SERVER ?? 'http://127.0.0.1:8080';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** Files the server sends compressed (facade/src/routes/static_files.rs serves the siblings). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|wasm)$/;
/** Below this a compressed copy saves too little to be worth a second file. */
const MIN_BYTES = 512;

/** Every file of a directory, recursively (relative paths). */
async function filesOf(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const rel = path.join(prefix, e.name);
    if (e.isDirectory()) {
      if (!e.name.startsWith('.')) out.push(...(await filesOf(path.join(dir, e.name), rel)));
    } else out.push(rel);
  }
  return out;
}

/**
 * After the build, writes a `.gz` (level 9) and a `.br` (quality 11) beside every text file of
 * the output, so the server sends them without compressing per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'yoo-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesOf(outDir)).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (rel) => {
          const file = path.join(outDir, rel);
          if ((await stat(file)).size < MIN_BYTES) return;
          const data = await readFile(file);
          const [gz, br] = await Promise.all([
            gzipAsync(data, { level: 9 }),
            brotliAsync(data, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
          ]);
          await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
        }),
      );
    },
  };
}

export default defineConfig(({ mode }) => ({
  plugins: [react(), precompress()],
  // react-router's package exports only its development build (warnings and invariant texts
  // included); a production bundle takes the production build it ships beside it
  resolve: mode === 'production' ? { alias: [{ find: /^react-router$/, replacement: path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs') }] } : {},
  // the manifest (dist/.vite/manifest.json, never served) tells scripts/check-bundle.mjs which
  // chunks the home page loads
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    rollupOptions: {
      output: {
        // What every page runs (the libraries, the codes, the store context) in one chunk:
        // left to itself the bundler splits them into several small ones the home route loads
        // all of, each with its own overhead (issue 7's budget: check-bundle.mjs)
        advancedChunks: {
          groups: [
            {
              name: 'shell',
              test: /node_modules[\\/](mobx|mobx-react-lite|react|react-dom|scheduler|react-router)[\\/]|src[\\/](api[\\/]codes|gen[\\/]codes|kernel[\\/]storeContext|components[\\/]GameImage|transport[\\/]apiError)/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: server, changeOrigin: true },
      '/echo': { target: server, ws: true, changeOrigin: true },
    },
  },
  test: {
    environment: 'happy-dom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
}));
