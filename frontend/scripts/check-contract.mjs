// Shows that the frontend's types are the server's: renames one field in the server's OpenAPI
// document (as a rename in the Rust type would), regenerates the types into a copy of src/, and
// expects the type check of that copy to fail on the renamed field. Run by `make test`
// (ops/test.sh) after `npm run gen`; exits non-zero if the rename went unnoticed.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { typesOf } from './gen-api.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const doc = JSON.parse(readFileSync(path.join(root, 'src/gen/openapi.json'), 'utf8'));

/** Renames `from` to `to` in one schema (properties and required). */
function rename(schema, from, to) {
  const s = doc.components.schemas[schema];
  if (!s?.properties?.[from]) throw new Error(`${schema}.${from} is not in the document`);
  s.properties[to] = s.properties[from];
  delete s.properties[from];
  s.required = (s.required ?? []).map((r) => (r === from ? to : r));
}

// Profile.nickname and LiveState.gameName: fields the stores and components read.
const renames = [
  ['Profile', 'nickname', 'nick_name'],
  ['LiveState', 'gameName', 'game_title'],
];
for (const [schema, from, to] of renames) rename(schema, from, to);

const work = mkdtempSync(path.join(tmpdir(), 'yoo-contract-'));
try {
  cpSync(path.join(root, 'src'), path.join(work, 'src'), { recursive: true });
  cpSync(path.join(root, 'tsconfig.json'), path.join(work, 'tsconfig.json'));
  cpSync(path.join(root, 'vite.config.ts'), path.join(work, 'vite.config.ts'));
  symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'));
  writeFileSync(path.join(work, 'src/gen/api.ts'), await typesOf(doc));
  let output = '';
  let failed = false;
  try {
    execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['--noEmit', '-p', path.join(work, 'tsconfig.json')], { encoding: 'utf8' });
  } catch (e) {
    failed = true;
    output = `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
  const missed = renames.filter(([, from]) => !output.includes(from));
  if (!failed || missed.length > 0) {
    console.error(`contract check: renaming ${missed.map((r) => r.join('.')).join(', ')} in the document did not fail the type check`);
    console.error(output);
    process.exit(1);
  }
  const errors = output.split('\n').filter((l) => l.includes('error TS')).length;
  console.log(`contract check: the renamed fields fail the type check (${errors} errors), as they must`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
