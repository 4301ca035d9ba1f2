import type { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it, vi } from 'vitest';
import { MissingDependencyError } from './errors/missing-dependency-error.js';
import { createS3FileStore } from './s3-file-store.js';

/** Stands in for `@aws-sdk/client-s3` not being installed yet: the next `failures` loads of it fail. */
const sdk = vi.hoisted(() => ({ failures: 0 }));

vi.mock('./internal/load-optional-dependency.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./internal/load-optional-dependency.js')>();
  return {
    ...actual,
    loadOptionalDependency: <T>(feature: string, packageName: '@aws-sdk/client-s3', load: () => Promise<T>) => {
      if (sdk.failures === 0) return actual.loadOptionalDependency(feature, packageName, load);
      sdk.failures--;
      return Promise.reject(
        new MissingDependencyError({ packageName, versionRange: '^3', feature, cause: new Error('not installed') }),
      );
    },
  };
});

describe('createS3FileStore when the SDK is missing', () => {
  it('fails with MissingDependencyError, then works once the SDK loads, without a new store', async () => {
    const commands: string[] = [];
    const client = {
      async send(command: { constructor: { name: string } }) {
        commands.push(command.constructor.name);
        return {};
      },
    } as unknown as S3Client;
    const store = createS3FileStore({ bucket: 'b', client });
    sdk.failures = 1;
    await expect(store.write('a.json', '1')).rejects.toBeInstanceOf(MissingDependencyError);
    expect(commands).toEqual([]);
    await store.write('a.json', '1');
    expect(commands).toEqual(['PutObjectCommand']);
  });
});
