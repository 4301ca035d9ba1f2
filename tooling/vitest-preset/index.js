// Shared vitest project config. Tests import workspace packages by their public names
// (`@x/events`, `@x/store/testing`, ...); the aliases below resolve those names to the
// packages' TypeScript sources so a package's tests never depend on a stale `dist/`.
import { fileURLToPath } from 'node:url';
import { defineProject, mergeConfig } from 'vitest/config';

const root = fileURLToPath(new URL('../..', import.meta.url));

const sourceEntries = {
  '@x/events/testing': 'packages/events/src/testing/index.ts',
  '@x/events': 'packages/events/src/index.ts',
  '@x/store/testing': 'packages/store/src/testing/index.ts',
  '@x/store': 'packages/store/src/index.ts',
  '@x/store-postgres/testing': 'packages/store-postgres/src/testing/index.ts',
  '@x/store-postgres': 'packages/store-postgres/src/index.ts',
  '@x/agent/testing': 'packages/agent/src/testing/index.ts',
  '@x/agent': 'packages/agent/src/index.ts',
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

/**
 * @param {import('vitest/config').UserWorkspaceConfig} [overrides]
 */
export function defineXProject(overrides = {}) {
  return mergeConfig(
    defineProject({
      resolve: { alias: workspaceAliases() },
      test: {
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        environment: 'node',
        testTimeout: 30_000,
        hookTimeout: 60_000,
        env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        reporters: ['default', fileURLToPath(new URL('./reporter.js', import.meta.url))],
      },
    }),
    overrides,
  );
}
