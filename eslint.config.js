// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Architecture §1.5: time comes from the injected clock only.
const CLOCK_RULE = {
  selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
  message: 'Use the injected clock (mock-server/src/clock).',
};

// A bare 100 or 600 hides a role rule from grep and from readers: name it (contract/roles.ts ROLE).
const ROLE_RULES = [
  "BinaryExpression[left.property.name='role'][right.raw=/^[0-9]+$/]",
  "BinaryExpression[right.property.name='role'][left.raw=/^[0-9]+$/]",
  "BinaryExpression[left.name='role'][right.raw=/^[0-9]+$/]",
  "Property[key.name='role'][value.raw=/^[0-9]+$/]",
  "SwitchStatement[discriminant.property.name='role'] > SwitchCase[test.raw=/^[0-9]+$/]",
  'CallExpression[callee.name=/[Rr]ole$/] > Literal.arguments[raw=/^[0-9]+$/]',
].map((selector) => ({ selector, message: 'Name the role: ROLE.owner, ROLE.guest, … (mock-server/src/contract/roles.ts).' }));

// One error catalogue: errors are built by the factories of domain/errors.ts, never by hand.
const CATALOGUE_RULES = [
  { selector: "NewExpression[callee.name='ApiError']", message: 'Add or use a factory in mock-server/src/domain/errors.ts.' },
  {
    selector: "Property[key.name='result'][value.value='error']",
    message: 'Error envelopes come from ApiError.body() (mock-server/src/domain/errors.ts).',
  },
];

// No express application runs (app.ts restRouter, http/front-door.ts): requests and answers are node's own objects,
// and express's request and response methods do not exist on them, whatever express's types say.
const EXPRESS_MEMBERS_RULE = {
  selector:
    'MemberExpression[object.name=/^(req|res|request|response)$/][property.name=/^(json|jsonp|status|sendStatus|send|sendFile|download|type|contentType|set|get|header|append|vary|location|redirect|cookie|clearCookie|format|attachment|links|render|accepts|acceptsEncodings|acceptsCharsets|acceptsLanguages|is|query|hostname|host|ip|ips|protocol|secure|subdomains|fresh|stale|xhr|range|app)$/]',
  message:
    "Not on node's request or answer: use http/web-answers.ts (sendText, sendFile, redirect, setCookie, preferred, queryOf) or node's API.",
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', CLOCK_RULE],
    },
  },
  {
    // The inspector page's script runs in the browser (README "Inspector"); it has no clock to inject.
    files: ['mock-server/src/inspector/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // mock-server/src: roles are named and errors come from the catalogue (ARCHITECTURE rules 3 and 8).
    // The clock rule is repeated because a later block's options replace an earlier block's.
    files: ['mock-server/src/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', CLOCK_RULE, ...ROLE_RULES, ...CATALOGUE_RULES, EXPRESS_MEMBERS_RULE] },
  },
  {
    // The control client speaks fetch: its `res` is a fetch Response.
    files: ['mock-server/src/control/client.ts'],
    rules: { 'no-restricted-syntax': ['error', CLOCK_RULE, ...ROLE_RULES, ...CATALOGUE_RULES] },
  },
  {
    // The catalogue: errors.ts and the modules it re-exports.
    files: ['mock-server/src/domain/errors.ts', 'mock-server/src/domain/api-error.ts', 'mock-server/src/domain/area-errors.ts'],
    rules: { 'no-restricted-syntax': ['error', CLOCK_RULE, ...ROLE_RULES] },
  },
  {
    // The conformance suite speaks HTTP only: it must work against any server, so it never imports the mock.
    files: ['conformance/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/mock-server/**', '../mock-server', 'mock-server'],
              message: 'conformance/ must not import mock-server/: it speaks HTTP only.',
            },
          ],
        },
      ],
      'no-restricted-syntax': 'off',
    },
  },
  {
    // What every command shares: the conformance suite imports these, so they import neither side.
    files: ['cli/common.ts', 'cli/hosts.ts', 'cli/secret-names.ts', 'cli/signals.ts', 'cli/socket-answer.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/mock-server/**', '**/conformance/**'],
              message: 'cli/common.ts and its kin are shared by the mock and the suite: they import neither.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'bench/**/*.ts', 'mock-server/src/clock/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
