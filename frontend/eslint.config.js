// ESLint (flat config): typescript-eslint's recommended rules and the React hooks rules over the
// app, its tests and the node scripts. `npm run lint`; `make test` runs it.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'src/gen/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // `_`-prefixed names are deliberately unused (tsc's noUnusedLocals agrees)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // plain scripts the page loads as they are (the old-browser notice)
    files: ['public/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  {
    files: ['src/**/*.test.{ts,tsx}', 'src/test/**'],
    // test doubles take whatever the code under test sends
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['e2e/**/*.mjs', 'scripts/**/*.mjs', 'vite.config.ts', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
