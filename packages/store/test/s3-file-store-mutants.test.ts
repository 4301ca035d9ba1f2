import { randomBytes } from 'node:crypto';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidPathError } from '../src/errors/invalid-path-error.js';
import { StoreBackendError } from '../src/errors/store-backend-error.js';
import type { FileStore } from '../src/file-store.js';
import { createS3FileStore } from '../src/s3-file-store.js';
import { createTestBucket, type TestBucket } from '../src/testing/test-bucket.js';
import { s3TestEndpoint } from './helpers/s3-test-endpoint.js';

// The S3 store's behaviours the FileStore contract leaves out, against moto: the claim-then-write pair the
// EventLog appends with, how often a failing conditional put is sent, and copy's error mapping.

const endpoint = s3TestEndpoint();
let bucket: TestBucket;

beforeAll(async () => {
  bucket = await createTestBucket(endpoint);
});

/** The real client, counting the commands it sends by name (every command still reaches moto). */
function countingClient(client: S3Client) {
  const sent: string[] = [];
  const counting = {
    send(command: { constructor: { name: string } }) {
      sent.push(command.constructor.name);
      return client.send(command as never);
    },
  };
  return { client: counting, sent };
}

/** The object's text as moto holds it, or undefined when there is none. */
async function objectText(key: string): Promise<string | undefined> {
  try {
    const response = await bucket.client.send(new GetObjectCommand({ Bucket: bucket.bucket, Key: key }));
    return await response.Body?.transformToString('utf-8');
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

function pair(store: FileStore) {
  const write = store.writeIfAbsentThenWrite;
  if (write === undefined) throw new Error('the S3 store offers writeIfAbsentThenWrite');
  return write.bind(store);
}

const CLAIM = 'log/.slots/00000.json';
const EVENT = 'log/event-00000-a.json';

describe('S3 writeIfAbsentThenWrite', () => {
  it('creates the claim, tells onCreated before the file is written, and resolves once the file is stored', async () => {
    const prefix = `pair-${randomBytes(4).toString('hex')}/`;
    const store = bucket.createStore({ prefix });
    const seen: Array<string | undefined> = [];
    const created = await pair(store)({ path: CLAIM, data: 'claim' }, { path: EVENT, data: 'event' }, () => {
      seen.push('created');
    });
    expect(created).toBe(true);
    expect(seen).toEqual(['created']);
    // Read straight from the bucket at once: without deferThen nothing is left running.
    expect(await objectText(`${prefix}${EVENT}`)).toBe('event');
    expect(await objectText(`${prefix}${CLAIM}`)).toBe('claim');
  });

  it('resolves false when the claim exists: onCreated not called, the file not written', async () => {
    const prefix = `pair-${randomBytes(4).toString('hex')}/`;
    const store = bucket.createStore({ prefix });
    await store.write(CLAIM, 'first');
    let called = 0;
    const deferred: Promise<void>[] = [];
    const created = await pair(store)({ path: CLAIM, data: 'second' }, { path: EVENT, data: 'event' }, () => called++, {
      deferThen: (rest) => deferred.push(rest),
    });
    expect(created).toBe(false);
    expect(called).toBe(0);
    expect(deferred).toEqual([]);
    expect(await objectText(`${prefix}${CLAIM}`)).toBe('first');
    expect(await objectText(`${prefix}${EVENT}`)).toBeUndefined();
  });

  it('with deferThen hands over the file’s write, which stores the file', async () => {
    const prefix = `pair-${randomBytes(4).toString('hex')}/`;
    const store = bucket.createStore({ prefix });
    const deferred: Promise<void>[] = [];
    const created = await pair(store)({ path: CLAIM, data: 'claim' }, { path: EVENT, data: 'event' }, () => {}, {
      deferThen: (rest) => deferred.push(rest),
    });
    expect(created).toBe(true);
    expect(deferred).toHaveLength(1);
    await deferred[0];
    expect(await objectText(`${prefix}${EVENT}`)).toBe('event');
  });

  it('refuses an invalid file path before claiming anything', async () => {
    const prefix = `pair-${randomBytes(4).toString('hex')}/`;
    const store = bucket.createStore({ prefix });
    const error = await pair(store)({ path: CLAIM, data: 'claim' }, { path: '../out.json', data: 'x' }, () => {}).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(InvalidPathError.isInstance(error)).toBe(true);
    expect(await store.exists(CLAIM)).toBe(false);
  });
});

describe('S3 failures', () => {
  it('sends a conditional put that fails for another reason than a conflict once, without retrying', async () => {
    const { client, sent } = countingClient(bucket.client);
    const store = createS3FileStore({ bucket: `missing-${randomBytes(4).toString('hex')}`, client });
    const error = await store.writeIfAbsent('a.json', 'x').then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(StoreBackendError.isInstance(error)).toBe(true);
    expect((error as StoreBackendError).backendCode).toBe('NoSuchBucket');
    expect(sent).toEqual(['PutObjectCommand']);
  });

  it('reports a copy in a missing bucket as a backend failure, not as a missing source file', async () => {
    const store = createS3FileStore({ bucket: `missing-${randomBytes(4).toString('hex')}`, client: bucket.client });
    const error = await store.copy('a.json', 'b.json').then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(StoreBackendError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'copy', backendCode: 'NoSuchBucket' });
  });

  it('deletes a directory holding a single object', async () => {
    const store = bucket.createStore();
    await store.write('one/only.json', 'x');
    await store.delete('one');
    expect(await store.exists('one')).toBe(false);
    expect(await store.list('')).toEqual([]);
  });
});

describe('S3 names', () => {
  it('describes a directory named with its trailing slash, as list names it, as the directory', () => {
    const store = bucket.createStore({ prefix: 'described/' });
    expect(store.describe('dir/')).toBe(`s3://${bucket.bucket}/described/dir`);
  });

  it('lists a name holding a control character other than NUL', async () => {
    const store = bucket.createStore();
    await store.write('dir/a\u0001b.json', 'x');
    expect(await store.list('dir')).toEqual(['dir/a\u0001b.json']);
  });
});
