import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'dashboard/src/api/schema.d.ts', 'clients/typescript/src/schema.ts', 'clients/typescript/dist/', 'test/architecture/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/config.ts only.' }],
    },
  },
  { files: ['src/config.ts', 'src/main.ts', 'test/**', 'bench/**', 'vitest.config.ts', 'dashboard/**'], rules: { 'no-restricted-properties': 'off' } },
);
