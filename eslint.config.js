import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// Repositories and services must never reach for the client, and the client never for the server.
const NO_SERVER = { group: ['**/server/**'], message: 'The client never imports server code.' };

const FEATURES_DIR = 'src/client/features';
const features = fs.existsSync(FEATURES_DIR)
  ? fs
      .readdirSync(FEATURES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];
/** Deepest folder inside a feature the rules below reach (features/<name>/a/b/c/file.ts is 3). */
const MAX_FEATURE_DEPTH = 5;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const up = (levels) => '(\\.\\./)'.repeat(levels);

/**
 * A feature folder imports only from @/components, @/lib, the contract and its own files: what two
 * features share moves to components/ or lib/, and features are composed in app/. For a file
 * `depth` folders below its feature's root, a relative path climbing `depth + 1` levels has left
 * the feature; it may still land in client/components, client/lib or src/contract (the unit tests
 * load those relatively, having no path aliases).
 */
function featureBoundary(feature, depth) {
  const sharedByRelativePath = `${up(depth + 2)}(lib|components)(/|$)|${up(depth + 3)}contract(/|$)`;
  const message =
    `A feature imports only from @/components, @/lib, @contract and its own folder (${feature}): ` +
    'move what two features share into components/ or lib/, or compose the features in app/.';
  return {
    files: [`${FEATURES_DIR}/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_SERVER,
            { regex: `^@/features/(?!${escape(feature)}(/|$))`, message },
            { regex: '^@/app(/|$)', message },
            { regex: `^(?!${sharedByRelativePath})${up(depth + 1)}`, message },
          ],
        },
      ],
    },
  };
}

/**
 * The server's floors: what the modules (routes, services, repositories) stand on. A floor never
 * imports a module; what a plugin needs of one (a session, a role) app.ts hands it as an option,
 * and what both share (types, error texts) sits in context.ts, lib/ or the contract. Tests are
 * exempt: they may drive a floor through the modules above it.
 */
const SERVER_FLOORS = [
  'src/server/plugins/**/*.ts',
  'src/server/lib/**/*.ts',
  'src/server/db/**/*.ts',
  'src/server/caches.ts',
  'src/server/context.ts',
  'src/server/http.ts',
];
const NO_MODULES = {
  regex: '(^|/)modules(/|$)',
  message:
    'plugins/, lib/, db/, caches.ts, context.ts and http.ts sit below the modules and never import them: ' +
    'move the shared type or text down (context.ts, lib/, the contract) or have app.ts pass the lookup in.',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'migrations/', 'data/', 'coverage/', 'e2e/artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SERVER] }] },
  },
  {
    // The shared layers sit below the features and the app: they import neither.
    files: ['src/client/components/**/*.{ts,tsx}', 'src/client/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_SERVER,
            {
              regex: '^@/(features|app)(/|$)|^(\\.\\./)+(features|app)(/|$)',
              message: 'components/ and lib/ are shared by every feature: they never import a feature or the app.',
            },
          ],
        },
      ],
    },
  },
  ...features.flatMap((feature) =>
    Array.from({ length: MAX_FEATURE_DEPTH + 1 }, (_, depth) => featureBoundary(feature, depth)),
  ),
  {
    files: SERVER_FLOORS,
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_MODULES] }] },
  },
  {
    // No run-time import loops between the server's files (type-only imports are erased).
    files: ['src/server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
      // The files a cycle passes through are parsed as TypeScript too.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    // Type-only imports are erased and cannot loop at start-up (eslint-plugin-import-x's own option).
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }] },
  },
);
