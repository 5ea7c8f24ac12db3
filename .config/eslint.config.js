// Lint: TypeScript rules plus the import boundaries of DESIGN.md §1.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import featureZones from './eslint-rules/feature-zones.js';
import repositoryPaths from './eslint-rules/repository-paths.js';

// Feature zones (DESIGN §1): each folder of a root is a feature or a shared home; features do not import each
// other, shared homes import no feature. Files directly in the root (the composition root) may import anything.
const SERVER_ZONE = {
  root: 'src/server',
  shared: [
    'http', // middleware, errors, envelopes, request parsing and the gates (own account, company, plan): every route speaks through it
    'lib', // small server pieces with no feature of their own (secrets, tokens, passwords, limiters, the Account and Ticket views)
    'db', // the one Drizzle schema, the client, migrations and the demo accounts (the seed itself is the root's)
    'cfdi', // CFDI as a domain service: parse, build, seal, SAT rules, stamp (PAC), PDF, e.firma; a CFDI's receipts, books, cancellation
    'files', // the file store port: where PDFs, XML, images and uploads are kept
    'mail', // the mailer, the dev mailbox and the HTML of every message
    'jobs', // the background queue (pg-boss) every feature schedules work on
    'openapi', // the Endpoint shape and shared response schemas; the document is built from lists the root hands it
    'payments', // the card-payment provider port and its adapters (sandbox, Stripe): an outside service, like mail
  ],
  // Imports still to untangle, tolerated until each is gone: remove a pair when it no longer occurs.
  pending: [],
};

// src/app's shared homes, each imported by several features.
const APP_ZONE = {
  root: 'src/app',
  shared: [
    'ui', // the design system: buttons, fields, dialogs, toasts, icons, the company table's styles
    'api', // the endpoints and the files the page asks the server for, over the one HTTP client
    'layout', // the frames every screen sits in: the signed-out card, the signed-in layout's context, menu, account sync
    'charts', // the chart kit (donut, lines, tables) of the dashboard, the year view and the company view
    'tickets', // the ticket list, its rows, cards, CFDI view and selection, and the spending summary: home, annual, company-view
    'tax-data', // the RFC and tax-data fields and checks: sign-up, 'Agregar cuenta', billing data, join, a profile's address
    'feature-gates', // what a screen shows instead of a feature the plan or the RFC does not allow
  ],
  pending: [],
};

// React hooks rules for the PWA, every one an error (the preset leaves a few as warnings).
const REACT_HOOKS_RULES = Object.fromEntries(Object.keys(reactHooks.configs.recommended.rules).map((rule) => [rule, 'error']));

// src/app folders whose screens are still moving to TanStack Query: the hooks rules are off there until each is done.
// Remove a folder from this list (one a line) when its migration lands.
const REACT_HOOKS_PENDING = [];

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
  {
    plugins: { local: { rules: { 'feature-zones': featureZones, 'repository-paths': repositoryPaths } } },
    rules: {
      // The repository runs with nothing beside it (DESIGN §6): no path out of it.
      'local/repository-paths': 'error',
      'local/feature-zones': ['error', {
        zones: [
          SERVER_ZONE,
          APP_ZONE,
        ],
      }],
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
  // The plugin for the whole PWA (so a rule named in a comment resolves everywhere), its rules outside the pending folders.
  { files: ['src/app/**/*.{ts,tsx}'], plugins: { 'react-hooks': reactHooks } },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    ignores: REACT_HOOKS_PENDING.map((folder) => `src/app/${folder}/**`),
    rules: REACT_HOOKS_RULES,
  },
  boundary(['sw/**'], [
    { group: ['**/app/**', '**/server/**'], message: 'the service worker never imports app or server.' },
  ]),
);
