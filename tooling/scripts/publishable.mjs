// The packages published to npm, in dependency order (what `changeset publish` uploads).
export const publishable = ['packages/events', 'packages/store', 'packages/agent', 'apps/server', 'apps/cli'];
