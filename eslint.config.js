import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import i18next from 'eslint-plugin-i18next';

/**
 * The screens whose every word comes from a catalogue (issue 44, decision 067): a literal string
 * in their JSX text or in an attribute a person reads is refused. The list grows screen by screen
 * until it is all of src/client.
 */
const TRANSLATED_SCREENS = [
  'src/client/app/layout/*.tsx',
  'src/client/app/screens/SettingsScreen.tsx',
  'src/client/app/screens/DashboardScreen.tsx',
  'src/client/features/dashboard/**/*.tsx',
  'src/client/features/integrations/components/IntegrationsHint.tsx',
  'src/client/components/StatusBadge.tsx',
  'src/client/features/settings/components/AccountForm.tsx',
  'src/client/features/settings/components/AppearanceCard.tsx',
  'src/client/features/settings/components/ChoiceCard.tsx',
  'src/client/features/settings/components/LanguageCard.tsx',
];

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

/**
 * The server's modules in tiers (decision 057): a module imports its own folder, the modules of
 * strictly lower tiers, the floors above and the contract; never a module of its own tier or of
 * one above. What a lower module needs from a higher one moves down (a shared rule goes to the
 * lowest module that owns its data), or app.ts hands it in when it composes the services.
 * Type-only imports are refused too: a type that two tiers share lives in the lower one.
 * Every folder under src/server/modules must be in exactly one tier (layers.test.ts checks).
 */
const SERVER_TIERS = [
  { name: 'records', modules: ['audit'] },
  { name: 'organizations and their plan', modules: ['organizations'] },
  {
    name: "an organization's people, places and settings",
    modules: ['domains', 'invitations', 'mailrooms', 'photos', 'recipients', 'settings'],
  },
  {
    name: 'accounts, expected packages and the directory',
    modules: ['auth', 'expected-packages', 'roster', 'scim'],
  },
  { name: 'mail items, billing and single sign-on', modules: ['billing', 'mail-items', 'sso'] },
  { name: 'pickups, messages and the live desk', modules: ['live', 'notifications', 'pickups'] },
  { name: 'the recipient page, integrations and privacy', modules: ['integrations', 'portal', 'privacy'] },
  {
    name: 'reports and the platform',
    modules: ['analytics', 'dashboard', 'demo', 'history', 'operations', 'super-admin'],
  },
];
const SERVER_MODULES_DIR = 'src/server/modules';
/** Deepest folder inside a module the rules below reach (modules/<name>/a/b/file.ts is 2). */
const MAX_MODULE_DEPTH = 4;

/** The modules `module` may import besides itself: those of strictly lower tiers. */
function modulesBelow(module) {
  const tier = SERVER_TIERS.findIndex((t) => t.modules.includes(module));
  return tier < 0 ? [] : SERVER_TIERS.slice(0, tier).flatMap((t) => t.modules);
}

/**
 * For a file `depth` folders below its module's root, a relative path climbing `depth + 1`
 * levels lands in modules/ (and `depth + 2` levels then `modules/` lands there too): what follows
 * must be the module itself or one of a lower tier.
 */
function moduleTier(module, depth) {
  const tier = SERVER_TIERS.findIndex((t) => t.modules.includes(module));
  const allowed = [module, ...modulesBelow(module)].map(escape).join('|');
  const message =
    tier < 0
      ? 'This module folder is in no tier: add it to SERVER_TIERS in eslint.config.js (decision 057).'
      : `modules/${module} is in tier ${tier} (${SERVER_TIERS[tier].name}) and imports only its own folder and ` +
        `the modules of lower tiers (${modulesBelow(module).join(', ') || 'none'}), the floors and the contract: ` +
        'move the shared rule down, or have app.ts hand the service in (decision 057).';
  return {
    files: [`${SERVER_MODULES_DIR}/${module}/${'*/'.repeat(depth)}*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: `^${up(depth + 1)}(?!\\.\\./)(?!(${allowed})(/|$))`, message },
            { regex: `^${up(depth + 2)}modules/(?!(${allowed})(/|$))`, message },
          ],
        },
      ],
    },
  };
}
const serverModules = fs.existsSync(SERVER_MODULES_DIR)
  ? fs
      .readdirSync(SERVER_MODULES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];

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
    files: TRANSLATED_SCREENS,
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          message: 'Words on a screen come from its catalogue (src/locales, useT): decision 067',
          // Calls whose string arguments are names, not words (the defaults' `t` included).
          callees: { exclude: ['t', 't\\.rich', 'navRoutes', 'register', 'fieldA11y', 'watch', 'setValue'] },
          'jsx-attributes': {
            // Attributes nobody reads: names, values, routes, styling, roles and test hooks.
            exclude: [
              'className',
              '\\w+ClassName',
              'tone',
              'style',
              'type',
              'key',
              'id',
              'name',
              'value',
              'href',
              'to',
              'role',
              'side',
              'align',
              'variant',
              'size',
              'orientation',
              'autoComplete',
              'inputMode',
              'htmlFor',
              'lang',
              'data-testid',
              'aria-hidden',
              'aria-current',
              'aria-live',
              'aria-labelledby',
              'aria-describedby',
            ],
          },
        },
      ],
    },
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
  // A folder outside SERVER_TIERS first: no other module at all, until it is placed (below, per module).
  ...Array.from({ length: MAX_MODULE_DEPTH + 1 }, (_, depth) => moduleTier('*', depth)),
  ...serverModules.flatMap((module) =>
    Array.from({ length: MAX_MODULE_DEPTH + 1 }, (_, depth) => moduleTier(module, depth)),
  ),
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
