import { readFileSync } from 'node:fs';
import { StoreError } from '@x/store';
import { describe, expect, it } from 'vitest';
import { MissingDependencyError } from '../errors/missing-dependency-error.js';
import { PostgresStoreError } from '../errors.js';
import { loadOptionalDependency } from './load-optional-dependency.js';
import { optionalDependencies } from './optional-dependencies.js';

/** Node's own error for importing a package that is not installed, as it would read for `name`. */
async function notInstalledError(name: string): Promise<Error> {
  const missing = `x-missing-package-${process.pid}`;
  const real = (await import(/* @vite-ignore */ missing).catch((error: unknown) => error)) as Error & { code: string };
  return Object.assign(new Error(real.message.replaceAll(missing, name)), { code: real.code });
}

describe('loadOptionalDependency', () => {
  it('turns a missing pg into a MissingDependencyError (a PostgresStoreError) naming it and its install command', async () => {
    const cause = await notInstalledError('pg');
    const error = await loadOptionalDependency('PostgreSQL storage', 'pg', () => Promise.reject(cause)).catch(
      (thrown: unknown) => thrown,
    );
    expect(MissingDependencyError.isInstance(error)).toBe(true);
    expect(PostgresStoreError.isInstance(error) && StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'missing_dependency', packageName: 'pg', cause });
    expect((error as Error).message).toContain(
      `'pg', an optional peer dependency of @x/store-postgres that is not installed: npm install pg@${optionalDependencies.pg}`,
    );
  });

  it('lets any other failure through: pg missing one of its own dependencies is not pg missing', async () => {
    const cause = await notInstalledError('pg-pool');
    await expect(loadOptionalDependency('PostgreSQL storage', 'pg', () => Promise.reject(cause))).rejects.toBe(cause);
  });

  it('lists exactly the optional peer dependencies of package.json, at their ranges', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      devDependencies: Record<string, string>;
    };
    const optionalPeers = Object.fromEntries(
      Object.entries(manifest.peerDependencies).filter(([name]) => manifest.peerDependenciesMeta[name]?.optional),
    );
    expect(optionalPeers).toEqual(optionalDependencies);
    for (const name of Object.keys(optionalDependencies)) expect(manifest.devDependencies, name).toHaveProperty([name]);
  });
});
