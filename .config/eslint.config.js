// Lint: TypeScript rules plus the import boundaries of DESIGN.md §1.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const boundary = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

export default tseslint.config(
  { ignores: ['dist/**', 'dev-dist/**', 'data/**', 'node_modules/**', 'src/server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  boundary(['src/domain/**'], [
    { group: ['**/offline/**', '**/app/**', '**/server/**', 'react', 'react-dom', 'dexie', 'node:*'], message: 'domain is pure: it imports nothing of ours, no React, no I/O.' },
  ]),
  boundary(['src/offline/**'], [
    { group: ['**/app/**', '**/server/**', 'react', 'react-dom', 'node:*'], message: 'offline imports only domain (DESIGN §1).' },
  ]),
  boundary(['src/server/**'], [
    { group: ['**/offline/**', '**/app/**', 'react', 'react-dom', 'dexie'], message: 'server imports only domain (DESIGN §1).' },
  ]),
  boundary(['src/app/**'], [
    { group: ['**/server/**'], allowTypeImports: true, message: 'app may import only types from server.' },
  ]),
  boundary(['sw/**'], [
    { group: ['**/app/**', '**/server/**'], message: 'the service worker never imports app or server.' },
  ]),
);
