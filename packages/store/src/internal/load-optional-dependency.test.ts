import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MissingDependencyError } from '../errors/missing-dependency-error.js';
import { StoreError } from '../errors.js';
import { loadOptionalDependency } from './load-optional-dependency.js';
import { optionalDependencies } from './optional-dependencies.js';

/** Node's own error for importing a package that is not installed, as it would read for `name`. */
async function notInstalledError(name: string): Promise<Error> {
  const missing = `x-missing-package-${process.pid}`;
  const real = (await import(/* @vite-ignore */ missing).catch((error: unknown) => error)) as Error & { code: string };
  return Object.assign(new Error(real.message.replaceAll(missing, name)), { code: real.code });
}

describe('loadOptionalDependency', () => {
  it('turns a missing AWS SDK into a MissingDependencyError (a StoreError) naming it and its install command', async () => {
    const cause = await notInstalledError('@aws-sdk/client-s3');
    const error = await loadOptionalDependency('The S3 store', '@aws-sdk/client-s3', () => Promise.reject(cause)).catch(
      (thrown: unknown) => thrown,
    );
    expect(MissingDependencyError.isInstance(error) && StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'missing_dependency', packageName: '@aws-sdk/client-s3', cause });
    expect((error as Error).message).toContain(
      `'@aws-sdk/client-s3', an optional peer dependency of @x/store that is not installed: npm install @aws-sdk/client-s3@${optionalDependencies['@aws-sdk/client-s3']}`,
    );
  });

  it('lets any other failure through', async () => {
    const cause = await notInstalledError('@smithy/core');
    await expect(
      loadOptionalDependency('The S3 store', '@aws-sdk/client-s3', () => Promise.reject(cause)),
    ).rejects.toBe(cause);
  });

  it('lists the optional peer dependencies of package.json (but vitest, which only ./testing uses), at their ranges', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      devDependencies: Record<string, string>;
    };
    const optionalPeers = Object.fromEntries(
      Object.entries(manifest.peerDependencies).filter(
        ([name]) => manifest.peerDependenciesMeta[name]?.optional && name !== 'vitest',
      ),
    );
    expect(optionalPeers).toEqual(optionalDependencies);
    for (const name of Object.keys(optionalDependencies)) expect(manifest.devDependencies, name).toHaveProperty([name]);
  });
});
