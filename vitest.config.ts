import UnpluginTypia from '@ryoppippi/unplugin-typia/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [UnpluginTypia({ cache: false })],
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll gives up after this (it returns as soon as the condition holds): the default 1 s is
    // too short for background work (a snapshot, a refit's install) on a loaded 2-core machine.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
  },
});
