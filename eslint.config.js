// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        // Architecture §1.5: time comes from the injected clock only.
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Use the injected clock (mock-server/src/clock).' },
      ],
    },
  },
  {
    // The conformance suite speaks HTTP only: it must work against any server, so it never imports the mock.
    files: ['conformance/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/mock-server/**', '../mock-server', 'mock-server'], message: 'conformance/ must not import mock-server/: it speaks HTTP only.' }] }],
      'no-restricted-syntax': 'off',
    },
  },
  {
    // What every command shares: the conformance suite imports it, so it imports neither side.
    files: ['cli/common.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/mock-server/**', '**/conformance/**'], message: 'cli/common.ts is shared by the mock and the suite: it imports neither.' }] }],
    },
  },
  {
    files: ['**/*.test.ts', 'bench/**/*.ts', 'mock-server/src/clock/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
