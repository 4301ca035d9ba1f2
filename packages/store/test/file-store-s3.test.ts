import { randomBytes } from 'node:crypto';
import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../src/errors.js';
import type { FileStore } from '../src/file-store.js';
import { createS3FileStore } from '../src/s3-file-store.js';
import { describeFileStoreContract } from '../src/testing/file-store-contract.js';
import { createTestBucket, type TestBucket } from '../src/testing/test-bucket.js';
import { s3TestEndpoint } from './helpers/s3-test-endpoint.js';

const endpoint = s3TestEndpoint();
let bucket: TestBucket;
const prefixes = new WeakMap<FileStore, string>();

beforeAll(async () => {
  bucket = await createTestBucket(endpoint);
});

function freshPrefix(): string {
  return `contract-${randomBytes(4).toString('hex')}/`;
}

describeFileStoreContract(
  's3 (moto or X_S3_ENDPOINT)',
  () => {
    const prefix = freshPrefix();
    const store = bucket.createStore({ prefix });
    prefixes.set(store, prefix);
    return store;
  },
  {
    cleanup: async (store) => {
      for (const entry of await store.list('')) await store.delete(entry.replace(/\/$/, ''));
    },
    // A store with its own client (the configuration path users take), over the same bucket and prefix.
    reopen: (store) =>
      createS3FileStore({
        bucket: bucket.bucket,
        prefix: prefixes.get(store),
        endpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      }),
  },
);

async function caught(action: () => Promise<unknown>): Promise<StoreError> {
  const error = await action().then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!StoreError.isInstance(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return error;
}

async function keysUnder(prefix: string): Promise<string[]> {
  const page = await bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.bucket, Prefix: prefix }));
  return (page.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [object.Key]));
}

describe('S3 FileStore', () => {
  it('keeps keys under its prefix and describes paths as s3:// URLs', async () => {
    const prefix = freshPrefix();
    const store = bucket.createStore({ prefix });
    await store.write('a/b.json', '{}');
    expect(await keysUnder(prefix)).toEqual([`${prefix}a/b.json`]);
    expect(store.describe('a/b.json')).toBe(`s3://${bucket.bucket}/${prefix}a/b.json`);
    const neighbour = bucket.createStore({ prefix: freshPrefix() });
    expect(await neighbour.list('')).toEqual([]);
  });

  it('works at the bucket root when no prefix is given', async () => {
    const own = await createTestBucket(endpoint);
    const store = createS3FileStore({ bucket: own.bucket, client: own.client });
    await store.write('root.txt', 'r');
    expect(await store.list('')).toEqual(['root.txt']);
    expect(store.describe('root.txt')).toBe(`s3://${own.bucket}/root.txt`);
  });

  it('follows continuation tokens when listing, and deletes a directory of more than 1000 keys in batches', async () => {
    // The real client, noting how many keys each DeleteObjects names (S3 refuses more than 1000; moto does not).
    const batches: number[] = [];
    const client = {
      send(command: { input: { Delete?: { Objects?: unknown[] } } }) {
        if (command instanceof DeleteObjectsCommand) batches.push(command.input.Delete?.Objects?.length ?? 0);
        return bucket.client.send(command as never);
      },
    };
    const store = createS3FileStore({ bucket: bucket.bucket, prefix: freshPrefix(), listPageSize: 150, client });
    const names = Array.from({ length: 1010 }, (_, i) => `many/${String(i).padStart(5, '0')}.json`);
    for (let i = 0; i < names.length; i += 50) {
      await Promise.all(names.slice(i, i + 50).map((name) => store.write(name, name)));
    }
    await store.write('many/sub/inner.json', 'x');
    await store.write('keep.json', 'k');
    expect(await store.list('many')).toEqual([...names, 'many/sub/']);
    await store.delete('many');
    expect(batches).toEqual([1000, 11]);
    expect(await store.list('many')).toEqual([]);
    expect(await store.exists('many')).toBe(false);
    expect(await store.list('')).toEqual(['keep.json']);
    // About ten seconds alone against moto; the limit is for a full parallel run on 2 shared cores.
  }, 120_000);

  it('ignores folder-marker objects and keys no store path could name', async () => {
    const prefix = freshPrefix();
    const store = bucket.createStore({ prefix });
    for (const key of [`${prefix}dir/`, `${prefix}dir//double`, `${prefix}dir/ok.txt`]) {
      await bucket.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: key, Body: 'x' }));
    }
    expect(await store.list('dir')).toEqual(['dir/ok.txt']);
  });

  it('maps AWS failures to backend_error with the SDK error as cause', async () => {
    const store = createS3FileStore({ bucket: `missing-${randomBytes(4).toString('hex')}`, client: bucket.client });
    const error = await caught(() => store.write('a.txt', 'x'));
    expect(error.code).toBe('backend_error');
    expect(error.message).toContain('NoSuchBucket');
    expect(error.cause).toBeInstanceOf(Error);
    expect((await caught(() => store.read('a.txt'))).code).toBe('backend_error');
  });

  it('rejects a prefix that is not a confined path', () => {
    expect(() => createS3FileStore({ bucket: 'b', prefix: '../up', client: bucket.client })).toThrow(/\.\./);
  });
});
