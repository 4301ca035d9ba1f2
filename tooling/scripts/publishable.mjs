// The packages published to npm, in dependency order (what `changeset publish` uploads). A test checks that
// every non-private package of the workspace is listed here and that turbo runs these tests after their builds.
export const publishable = [
  'packages/events',
  'packages/client',
  'packages/react',
  'packages/store',
  'packages/store-postgres',
  'packages/agent',
  'apps/server',
  'apps/cli',
];
