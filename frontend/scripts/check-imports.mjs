#!/usr/bin/env node
// The import rules of src/ that the arrows check (ops/arrows.py, between folders) does not see
// (ARCHITECTURE.md, frontend). Run by `npm run lint`.
//
// - No import cycle among the source files (tests left out): a cycle, even of type imports,
//   means two files cannot be understood (or split) one without the other.
// - No store imports the root store: a store (a file under a stores/ folder) declares what it
//   needs from the others as a small interface, and src/stores/rootStore.ts hands it over.
//
//   node scripts/check-imports.mjs               check src/; exit 1, one line per problem
//   node scripts/check-imports.mjs --self-test   the checker's own test, on made-up trees
//
// An import is `import ... from '...'`, `import '...'`, `export ... from '...'` or
// `import('...')` with a relative specifier (packages are not files of src/).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.resolve(here, '..', 'src');
const EXTS = ['.ts', '.tsx', '.mts', '.js', '.jsx', '.mjs'];
/** The root store: the one file that creates every store (relative to src/). */
export const ROOT_STORE = 'stores/rootStore.ts';

const IMPORT_RES = [
  /(?<![\w$.])(?:import|export)\s+(?:type\s+)?[\w\s{},*$]*?\bfrom\s*(['"])([^'"\n]+)\1/g,
  /(?<![\w$.])import\s*(['"])([^'"\n]+)\1/g,
  /(?<![\w$.])import\s*\(\s*(['"])([^'"\n]+)\1\s*[,)]/g,
];

/** Comments out of the way (strings stay: the specifiers are strings). */
function stripComments(src) {
  return src.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/(^|[^:\\'"`])\/\/[^\n]*/g, '$1');
}

/** A test file, left out of the check (tests may build the whole app). */
export const isTest = (rel) => /\.test\.[cm]?[jt]sx?$/.test(rel);

/** The relative specifiers a file imports, with their lines. */
export function importsOf(code) {
  const text = stripComments(code);
  const out = [];
  const seen = new Set();
  for (const re of IMPORT_RES) {
    re.lastIndex = 0;
    for (let m; (m = re.exec(text)); ) {
      const at = m.index + m[0].lastIndexOf(m[2]);
      if (seen.has(at) || !m[2].startsWith('.')) continue;
      seen.add(at);
      out.push({ spec: m[2], line: text.slice(0, at).split('\n').length });
    }
  }
  return out;
}

/** The file (relative to the tree) a specifier of `from` names, or null when none is there. */
export function resolve(files, from, spec) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const c of [base, ...EXTS.map((e) => base + e), ...EXTS.map((e) => stem + e), ...EXTS.map((e) => `${base}/index${e}`)]) {
    if (files.has(c)) return c;
  }
  return null;
}

/** The import graph of a tree given as { relative path: source }: file -> [{ to, line }]. */
export function graphOf(tree) {
  const files = new Set(Object.keys(tree).filter((f) => EXTS.some((e) => f.endsWith(e)) && !isTest(f)));
  const graph = new Map();
  for (const f of files) {
    const edges = [];
    for (const { spec, line } of importsOf(tree[f])) {
      const to = resolve(files, f, spec);
      if (to && to !== f) edges.push({ to, line });
    }
    graph.set(f, edges);
  }
  return graph;
}

/** The cycles of a graph: one per strongly connected part of two or more files (or a file importing itself), as a path back to its start. */
export function cyclesOf(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const parts = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!idx.has(to)) {
        strong(to);
        low.set(v, Math.min(low.get(v), low.get(to)));
      } else if (on.has(to)) {
        low.set(v, Math.min(low.get(v), idx.get(to)));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const part = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) parts.push(part);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strong(v);
  // one concrete circle inside each part: a shortest way from its first file back to it
  return parts.map((part) => {
    const inPart = new Set(part);
    const start = [...part].sort()[0];
    const prev = new Map([[start, null]]);
    const queue = [start];
    while (queue.length) {
      const v = queue.shift();
      for (const { to } of graph.get(v) ?? []) {
        if (!inPart.has(to)) continue;
        if (to === start) {
          const way = [start];
          for (let w = v; w !== start; w = prev.get(w)) way.splice(1, 0, w);
          return [...way, start];
        }
        if (!prev.has(to)) {
          prev.set(to, v);
          queue.push(to);
        }
      }
    }
    return [...part, part[0]];
  });
}

/** A store: a file under a stores/ folder. */
export const isStore = (rel) => rel.split('/').slice(0, -1).includes('stores');

/** The problems of a tree, one line each. */
export function problemsOf(tree) {
  const graph = graphOf(tree);
  const out = [];
  for (const cycle of cyclesOf(graph)) out.push(`import cycle: ${cycle.join(' -> ')}`);
  for (const [f, edges] of graph) {
    if (!isStore(f) || f === ROOT_STORE) continue;
    for (const { to, line } of edges) {
      if (to === ROOT_STORE) out.push(`${f}:${line}: a store imports ${ROOT_STORE} (declare what it needs as an interface; the root store hands it over)`);
    }
  }
  return out.sort();
}

export function readTree(dir) {
  const tree = {};
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (EXTS.some((x) => e.name.endsWith(x))) {
        tree[path.relative(dir, p).split(path.sep).join('/')] = readFileSync(p, 'utf8');
      }
    }
  };
  walk(dir);
  return tree;
}

function selfTest() {
  const expect = (what, got, want) => {
    const a = JSON.stringify(got);
    const b = JSON.stringify(want);
    if (a !== b) throw new Error(`self-test: ${what}: got ${a}, want ${b}`);
  };
  expect('imports', importsOf(`import a from './a';\nimport type { B } from "../b";\nexport * from './c';\nimport './d.css';\nconst e = () => import('./e');\n// import x from './x';\nimport r from 'react';`).map((i) => i.spec), [
    './a',
    '../b',
    './c',
    './d.css',
    './e',
  ]);
  const ok = {
    'stores/rootStore.ts': "import { A } from '../features/a/stores/a';",
    'features/a/stores/a.ts': "import type { B } from './b';",
    'features/a/stores/b.ts': "export type B = 1;",
    'features/a/stores/a.test.ts': "import { RootStore } from '../../../stores/rootStore';",
  };
  expect('a clean tree', problemsOf(ok), []);
  const bad = {
    ...ok,
    'features/a/stores/b.ts': "import type { A } from './a';\nexport type B = 1;",
    'features/a/stores/c.ts': "\nimport type { RootStore } from '../../../stores/rootStore';",
    'lib/x.ts': "import { y } from './y.js';",
    'lib/y.ts': "export { x } from './x';",
  };
  expect('a cycle, a type cycle, a store importing the root', problemsOf(bad), [
    'features/a/stores/c.ts:2: a store imports stores/rootStore.ts (declare what it needs as an interface; the root store hands it over)',
    'import cycle: features/a/stores/a.ts -> features/a/stores/b.ts -> features/a/stores/a.ts',
    'import cycle: lib/x.ts -> lib/y.ts -> lib/x.ts',
  ]);
  console.log('check-imports: self-test ok');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--self-test')) {
    selfTest();
  } else {
    const problems = problemsOf(readTree(SRC));
    for (const p of problems) console.error(`check-imports: ${p}`);
    if (problems.length) process.exit(1);
    console.log('check-imports: ok (no import cycle, no store imports the root store)');
  }
}
