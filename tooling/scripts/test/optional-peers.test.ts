// Optional peer dependencies pass through the apps: @x/server and @x/cli use their dependencies' optional features
// on the user's behalf (a provider named by X_MODEL, an S3 or PostgreSQL store from the configuration), so they
// declare every optional peer of the workspace packages they depend on, at the same range, and pnpm and Yarn link a
// peer the consumer installs for the package that imports it (npm's flat node_modules would find it anyway). The
// libraries do not: whoever calls createS3FileStore depends on @x/store directly. Every optional
// peer is also a devDependency, at a version inside its range, so the repository's own tests use it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishable } from '../publishable.mjs';
import { root } from './support/consumer-project.js';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Peers only the `./testing` subpaths use: a consumer of the main entry never needs them. */
const testingOnly = new Set(['vitest', 'fast-check']);

/** The apps, which pass on their dependencies' optional peers. */
const passesOn = new Set(['@x/server', '@x/cli']);

const manifests = new Map<string, Manifest>(
  publishable.map((dir) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest;
    return [manifest.name, manifest];
  }),
);

function optionalPeers(manifest: Manifest): Record<string, string> {
  return Object.fromEntries(
    Object.entries(manifest.peerDependencies ?? {}).filter(
      ([name]) => manifest.peerDependenciesMeta?.[name]?.optional === true && !testingOnly.has(name),
    ),
  );
}

describe('optional peer dependencies', () => {
  for (const [name, manifest] of manifests) {
    if (!passesOn.has(name)) continue;
    it(`${name} passes on the optional peers of the workspace packages it depends on`, () => {
      const own = { ...optionalPeers(manifest), ...(manifest.dependencies ?? {}) };
      for (const dependency of Object.keys(manifest.dependencies ?? {})) {
        const inner = manifests.get(dependency);
        if (inner === undefined) continue;
        for (const [peer, range] of Object.entries(optionalPeers(inner))) {
          expect(own[peer], `${name} declares ${peer} (an optional peer of ${dependency})`).toBeDefined();
          if (manifest.dependencies?.[peer] === undefined) {
            expect(own[peer], `${name}'s range of ${peer}`).toBe(range);
          }
        }
      }
    });
  }
  for (const [name, manifest] of manifests) {
    it(`${name} keeps each optional peer in its devDependencies`, () => {
      for (const peer of Object.keys(optionalPeers(manifest))) {
        expect(manifest.devDependencies?.[peer], `${name} devDependency ${peer}`).toBeDefined();
      }
    });
  }
});
