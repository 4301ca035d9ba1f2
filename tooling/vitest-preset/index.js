// Shared vitest project config. Tests import workspace packages by their public names
// (`@x/events`, `@x/store/testing`, ...); the aliases below resolve those names to the
// packages' TypeScript sources so a package's tests never depend on a stale `dist/`.
import { fileURLToPath } from 'node:url';
import { defineProject, mergeConfig } from 'vitest/config';
import { createTestHomeEnv } from './test-home.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const sourceEntries = {
  '@x/events/testing': 'packages/events/src/testing/index.ts',
  '@x/events': 'packages/events/src/index.ts',
  '@x/store/testing': 'packages/store/src/testing/index.ts',
  '@x/store/optional-dependency': 'packages/store/src/optional-dependency/index.ts',
  '@x/store': 'packages/store/src/index.ts',
  '@x/store-postgres/testing': 'packages/store-postgres/src/testing/index.ts',
  '@x/store-postgres': 'packages/store-postgres/src/index.ts',
  '@x/agent/testing': 'packages/agent/src/testing/index.ts',
  '@x/agent': 'packages/agent/src/index.ts',
  '@x/client': 'packages/client/src/index.ts',
  '@x/server/client': 'apps/server/src/client/index.ts',
  '@x/server': 'apps/server/src/index.ts',
};

/** @returns {import('vite').AliasOptions} */
export function workspaceAliases() {
  return Object.entries(sourceEntries).map(([find, path]) => ({
    find: new RegExp(`^${find.replace('/', '\\/')}$`),
    replacement: `${root}${path}`,
  }));
}

/** Test files run at once in one package; `pnpm test` sets 1 (turbo runs packages side by side). */
function maxWorkers() {
  const configured = Number(process.env.X_TEST_MAX_WORKERS);
  return Number.isInteger(configured) && configured > 0 ? configured : undefined;
}

/**
 * @param {import('vitest/config').UserWorkspaceConfig} [overrides]
 */
export function defineXProject(overrides = {}) {
  // Set here, in the main process, so global setups, test workers and every process a test starts inherit it.
  const homeEnv = createTestHomeEnv();
  Object.assign(process.env, homeEnv);
  const workers = maxWorkers();
  return mergeConfig(
    defineProject({
      resolve: { alias: workspaceAliases() },
      test: {
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        environment: 'node',
        // Sized for CI: 2 cores shared by everything the suite starts (servers, PostgreSQL, chromium, children).
        // A timeout is a safety net for a hung test, never the assertion: no test relies on finishing sooner.
        testTimeout: 120_000,
        hookTimeout: 180_000,
        teardownTimeout: 60_000,
        expect: { poll: { timeout: 60_000, interval: 20 } },
        ...(workers === undefined ? {} : { maxWorkers: workers }),
        globalSetup: [fileURLToPath(new URL('./global-setup.js', import.meta.url))],
        env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...homeEnv },
        reporters: ['default', fileURLToPath(new URL('./reporter.js', import.meta.url))],
      },
    }),
    overrides,
  );
}
