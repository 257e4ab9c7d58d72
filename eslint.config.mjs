// ESLint 9 flat config: typescript-eslint's type-checked rules, import order, and Prettier owns the layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import importPlugin from 'eslint-plugin-import';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', '.data/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { import: importPlugin },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // tsc's noUnusedLocals/noUnusedParameters already report these, with the same `_` convention.
      '@typescript-eslint/no-unused-vars': 'off',
      // An async method that implements a Promise-returning interface needs no await, and async turns its throws into rejections.
      '@typescript-eslint/require-await': 'off',
      // slimdom's types are ESM-only but src/xml/dom.ts must load its CommonJS build synchronously; the CLI loads the
      // service graph lazily (src/cli-support.ts) so `--help` starts in well under a second.
      '@typescript-eslint/no-require-imports': [
        'error',
        { allow: ['^slimdom$', '^\\./container$', '^\\./db/data-source$', '^\\./jobs/queue$', '^\\./jobs/workers$'] },
      ],
      // tsc resolves every import and checks every named export; the import plugin only orders and deduplicates.
      'import/order': ['error', { groups: ['builtin', 'external', ['internal', 'parent', 'sibling', 'index']], 'newlines-between': 'never' }],
      'import/no-duplicates': 'error',
      'import/first': 'error',
    },
  },
  {
    files: ['src/packages/escape.ts', 'src/packages/rdf-writer.ts'],
    // XML 1.0 and N-Triples escaping match control characters on purpose.
    rules: { 'no-control-regex': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests and benchmarks read JSON bodies whose shape is what they assert or report; typing each one adds casts, not safety.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['docker/**/*.js'],
    languageOptions: { globals: { fetch: 'readonly', AbortSignal: 'readonly' } },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { module: 'writable', require: 'readonly', process: 'readonly', __dirname: 'readonly' } },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
