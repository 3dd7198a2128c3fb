#!/usr/bin/env node
// The home page's script budget (issue 7): the entry chunk of dist/ and every chunk it imports
// statically (what the browser must load before the home page renders), compressed as the server
// sends it, must stay within the budget. Lazy chunks (other routes, the dialogs, the socket) do
// not count. Reads Vite's manifest (dist/.vite/manifest.json). Run by `npm run build`.
//
//   node scripts/check-bundle.mjs            check; exit 1 when over budget
//   node scripts/check-bundle.mjs --report   also print every chunk (for BENCHMARKS.md)
//
// With $LOADTEST_FIGURES set (the load-test harness's `command` workload, scenario
// loadtest/scenarios/first-load.toml), the sizes are also written there as the harness's figures.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '..', process.env.DIST_DIR ?? 'dist');
/** kB (1000 bytes, as Vite reports), gzip level 9 (the `.gz` sibling the build writes). */
export const HOME_GZIP_BUDGET_KB = Number(process.env.HOME_GZIP_BUDGET_KB ?? 100);

const kb = (n) => (n / 1000).toFixed(1);

function sizes(file) {
  const data = readFileSync(path.join(dist, file));
  return {
    raw: data.length,
    gzip: gzipSync(data, { level: 9 }).length,
    brotli: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** The manifest keys the entry loads before it runs: itself and its static imports, recursively. */
export function homeChunks(manifest) {
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('no entry chunk in the manifest');
  const seen = new Set();
  const walk = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) walk(dep);
  };
  walk(entry);
  return [...seen];
}

/** The harness's figures (loadtest/src/command.rs, FiguresFile): sizes in kB, as the table. */
export function figures(home, rows, css, total) {
  const k = (n) => Math.round(n / 100) / 10;
  const lazy = rows.filter((r) => !r.home);
  const sum = (list, key) => list.reduce((t, r) => t + r[key], 0);
  return {
    figures: [
      { name: 'home route scripts gzip kB', value: k(total.gzip) },
      { name: 'home route scripts brotli kB', value: k(total.brotli) },
      { name: 'home route scripts raw kB', value: k(total.raw) },
      { name: 'home route chunks', value: home.length },
      { name: 'home route stylesheet gzip kB', value: k(sum(css, 'gzip')) },
      { name: 'lazy chunks', value: lazy.length },
      { name: 'largest lazy chunk gzip kB', value: k(Math.max(0, ...lazy.map((r) => r.gzip))) },
      { name: 'gzip budget kB', value: HOME_GZIP_BUDGET_KB },
    ],
  };
}

function main() {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const home = homeChunks(manifest);
  const rows = Object.entries(manifest).map(([key, chunk]) => ({ key, file: chunk.file, home: home.includes(key), ...sizes(chunk.file) }));
  const css = [...new Set(home.flatMap((k) => manifest[k].css ?? []))].map((file) => ({ file, ...sizes(file) }));
  const total = rows.filter((r) => r.home).reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), { raw: 0, gzip: 0, brotli: 0 });

  if (process.argv.includes('--report')) {
    console.log('| chunk | home | raw kB | gzip kB | brotli kB |');
    console.log('|---|---|---:|---:|---:|');
    for (const r of rows.sort((a, b) => b.raw - a.raw)) {
      console.log(`| ${r.file} | ${r.home ? 'yes' : 'lazy'} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.brotli)} |`);
    }
    for (const c of css) console.log(`| ${c.file} | yes (style) | ${kb(c.raw)} | ${kb(c.gzip)} | ${kb(c.brotli)} |`);
  }
  console.log(
    `home route scripts: ${home.length} chunk(s), ${kb(total.raw)} kB raw, ${kb(total.gzip)} kB gzip, ${kb(total.brotli)} kB brotli (budget ${HOME_GZIP_BUDGET_KB} kB gzip)`,
  );
  if (process.env.LOADTEST_FIGURES) writeFileSync(process.env.LOADTEST_FIGURES, JSON.stringify(figures(home, rows, css, total)));
  if (total.gzip > HOME_GZIP_BUDGET_KB * 1000) {
    console.error(`the home route's scripts are ${kb(total.gzip)} kB gzipped, over the ${HOME_GZIP_BUDGET_KB} kB budget`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
