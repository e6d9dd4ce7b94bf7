import UnpluginTypia from '@ryoppippi/unplugin-typia/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [UnpluginTypia({ cache: false })],
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
  },
});
