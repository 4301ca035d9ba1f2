import { describe, expect, it } from 'vitest';
import { isPackageNotFound } from './is-package-not-found.js';
import { loadOptionalDependencies, loadOptionalDependency } from './load-optional-dependencies.js';

const missing = `x-missing-package-${process.pid}`;

/** Node's own error for importing a package that is not installed, as it would read for `name`. */
async function notInstalledError(name: string): Promise<Error> {
  const real = (await import(/* @vite-ignore */ missing).catch((error: unknown) => error)) as Error & { code: string };
  return Object.assign(new Error(real.message.replaceAll(missing, name)), { code: real.code });
}

class CallerError extends Error {
  constructor(
    readonly packageNames: readonly string[],
    override readonly cause: unknown,
  ) {
    super(`missing: ${packageNames.join(', ')}`);
  }
}

describe('isPackageNotFound', () => {
  it("recognises Node's error for a package that is not installed, and only for that package", async () => {
    const real = await import(/* @vite-ignore */ missing).catch((error: unknown) => error);
    expect(isPackageNotFound(real, missing)).toBe(true);
    expect(isPackageNotFound(real, 'openai')).toBe(false);
    expect(isPackageNotFound(await notInstalledError('@aws-sdk/client-s3'), '@aws-sdk/client-s3')).toBe(true);
    expect(isPackageNotFound(await notInstalledError('pg/lib/client'), 'pg')).toBe(true);
    expect(isPackageNotFound(await notInstalledError('pg-pool'), 'pg')).toBe(false);
    expect(isPackageNotFound(new Error(`Cannot find package '${missing}'`), missing)).toBe(false);
    expect(isPackageNotFound('not an error', missing)).toBe(false);
  });
});

describe('loadOptionalDependencies', () => {
  it("names every missing package in one error from the caller's factory, with the first one's cause", async () => {
    const first = await notInstalledError('@aws-sdk/client-s3');
    const second = await notInstalledError('pg');
    const error = await loadOptionalDependencies(
      {
        'node:path': () => import('node:path'),
        '@aws-sdk/client-s3': () => Promise.reject(first),
        pg: () => Promise.reject(second),
      },
      (packageNames, cause) => new CallerError(packageNames, cause),
    ).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CallerError);
    expect(error).toMatchObject({ packageNames: ['@aws-sdk/client-s3', 'pg'], cause: first });
  });

  it('lets any other failure through, a loader that throws at once included', async () => {
    const cause = await notInstalledError('@smithy/core');
    const factory = (names: readonly string[], reason: unknown) => new CallerError(names, reason);
    await expect(loadOptionalDependencies({ '@aws-sdk/client-s3': () => Promise.reject(cause) }, factory)).rejects.toBe(
      cause,
    );
    const thrown = new Error('broken');
    await expect(
      loadOptionalDependencies(
        {
          pg: () => {
            throw thrown;
          },
        },
        factory,
      ),
    ).rejects.toBe(thrown);
  });

  it('returns every module, keyed by package, when all are installed', async () => {
    const loaded = await loadOptionalDependencies(
      { 'node:path': () => import('node:path'), 'node:url': () => import('node:url') },
      () => new Error('unreachable'),
    );
    expect(typeof loaded['node:path'].join).toBe('function');
    expect(typeof loaded['node:url'].fileURLToPath).toBe('function');
  });
});

describe('loadOptionalDependency', () => {
  it("returns the module, or the caller's error when the package is not installed", async () => {
    expect(
      typeof (
        await loadOptionalDependency({
          packageName: 'node:path',
          load: () => import('node:path'),
          onMissing: () => new Error('unreachable'),
        })
      ).join,
    ).toBe('function');
    const cause = await notInstalledError('pg');
    const error = await loadOptionalDependency({
      packageName: 'pg',
      load: () => Promise.reject(cause),
      onMissing: (reason) => new CallerError(['pg'], reason),
    }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ packageNames: ['pg'], cause });
  });
});
