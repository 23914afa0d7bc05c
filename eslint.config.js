// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules over the
// whole tree (`npm run lint`, part of `npm test`). Type errors are tsc's (`npm run typecheck`).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', '.tmp/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_`-named bindings are deliberate: a key taken out of an object (`{ id: _id, ...rest }`),
      // an argument a signature must accept.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  // The examples are plain Node scripts, as users run them.
  { files: ['examples/**/*.{js,mjs,cjs}', 'scripts/**/*.{js,mjs,cjs}', '*.config.js'], languageOptions: { globals: globals.node } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
