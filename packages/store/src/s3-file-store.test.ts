import type { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { InvalidStoreOptionsError } from './errors/invalid-store-options-error.js';
import { StoreError } from './errors.js';
import { createS3FileStore } from './s3-file-store.js';

/** An SDK-shaped service error, as the client throws them. */
function serviceError(name: string, status: number): Error {
  return Object.assign(new Error(`${name} from the stub`), { name, $metadata: { httpStatusCode: status } });
}

/** A client whose `send` answers from a script of outcomes, recording the commands it got. */
function scriptedClient(outcomes: Array<Error | object>) {
  const commands: string[] = [];
  const client = {
    async send(command: { constructor: { name: string } }) {
      commands.push(command.constructor.name);
      const next = outcomes.shift();
      if (next === undefined) throw new Error('script exhausted');
      if (next instanceof Error) throw next;
      return next;
    },
  };
  return { client: client as unknown as S3Client, commands };
}

describe('createS3FileStore writeIfAbsent', () => {
  it('retries a 409 ConditionalRequestConflict and then reports the outcome', async () => {
    const { client, commands } = scriptedClient([
      serviceError('ConditionalRequestConflict', 409),
      serviceError('ConditionalRequestConflict', 409),
      {},
    ]);
    const store = createS3FileStore({ bucket: 'b', client });
    expect(await store.writeIfAbsent('slot.json', 'x')).toBe(true);
    expect(commands).toEqual(['PutObjectCommand', 'PutObjectCommand', 'PutObjectCommand']);
  });

  it('reports false on 412 PreconditionFailed, also after a conflict', async () => {
    const { client } = scriptedClient([
      serviceError('ConditionalRequestConflict', 409),
      serviceError('PreconditionFailed', 412),
    ]);
    expect(await createS3FileStore({ bucket: 'b', client }).writeIfAbsent('slot.json', 'x')).toBe(false);
  });

  it('sends at most five attempts: a success after five conflicts comes too late', async () => {
    const conflicts = Array.from({ length: 5 }, () => serviceError('ConditionalRequestConflict', 409));
    const { client, commands } = scriptedClient([...conflicts, {}]);
    const error = await createS3FileStore({ bucket: 'b', client })
      .writeIfAbsent('slot.json', 'x')
      .catch((reason: unknown) => reason);
    expect((error as StoreError).code).toBe('backend_error');
    expect((error as StoreError).message).toContain('ConditionalRequestConflict');
    expect(commands).toHaveLength(5);
  });

  it('retries a conflict known by its status alone or by its name alone', async () => {
    const nameless = serviceError('Conflict', 409);
    const statusless = Object.assign(new Error('conflict'), { name: 'ConditionalRequestConflict' });
    const { client, commands } = scriptedClient([nameless, statusless, {}]);
    expect(await createS3FileStore({ bucket: 'b', client }).writeIfAbsent('slot.json', 'x')).toBe(true);
    expect(commands).toHaveLength(3);
  });

  it('gives up after repeated conflicts with a backend_error carrying the SDK error', async () => {
    const conflicts = Array.from({ length: 5 }, () => serviceError('ConditionalRequestConflict', 409));
    const { client } = scriptedClient(conflicts);
    const store = createS3FileStore({ bucket: 'b', prefix: 'p', client });
    const error = await store.writeIfAbsent('slot.json', 'x').catch((reason: unknown) => reason);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).code).toBe('backend_error');
    expect((error as StoreError).message).toContain('s3://b/p/slot.json');
    expect((error as StoreError).cause).toBeInstanceOf(Error);
  });
});

describe('createS3FileStore error mapping', () => {
  it('maps NoSuchKey on read to file_not_found and other failures to backend_error', async () => {
    const { client } = scriptedClient([serviceError('NoSuchKey', 404), serviceError('AccessDenied', 403)]);
    const store = createS3FileStore({ bucket: 'b', client });
    const missing = await store.read('a.json').catch((reason: unknown) => reason);
    expect((missing as StoreError).code).toBe('file_not_found');
    const denied = await store.read('a.json').catch((reason: unknown) => reason);
    expect((denied as StoreError).code).toBe('backend_error');
    expect((denied as StoreError).message).toMatch(/AccessDenied.*403/);
  });

  it('checks exists with HeadObject, then a one-key listing of the directory', async () => {
    const { client, commands } = scriptedClient([
      serviceError('NotFound', 404),
      { KeyCount: 1, Contents: [{ Key: 'dir/x' }] },
    ]);
    expect(await createS3FileStore({ bucket: 'b', client }).exists('dir')).toBe(true);
    expect(commands).toEqual(['HeadObjectCommand', 'ListObjectsV2Command']);
  });

  it('counts the listed objects when a server leaves KeyCount out', async () => {
    const { client } = scriptedClient([serviceError('NotFound', 404), { Contents: [{ Key: 'dir/x' }] }]);
    expect(await createS3FileStore({ bucket: 'b', client }).exists('dir')).toBe(true);
  });

  it('maps a bare 404 on copy (a server naming no code) to file_not_found for the source', async () => {
    const { client } = scriptedClient([serviceError('NotFound', 404)]);
    const error = await createS3FileStore({ bucket: 'b', client })
      .copy('from.json', 'to.json')
      .catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'file_not_found', path: 'from.json' });
  });
});

// moto deletes every key of a DeleteObjects it is sent (it refuses only locked versions, which the store never
// names), so a partial failure is scripted: S3 answers 200 with the keys it could not delete in `Errors`.
describe('createS3FileStore delete', () => {
  const listing = { Contents: [{ Key: 'p/dir/a' }, { Key: 'p/dir/b' }], IsTruncated: false };

  it('rejects when DeleteObjects reports a key it could not delete', async () => {
    const { client, commands } = scriptedClient([
      {},
      listing,
      { Errors: [{ Key: 'p/dir/b', Code: 'AccessDenied', Message: 'Access Denied' }] },
    ]);
    const error = await createS3FileStore({ bucket: 'b', prefix: 'p', client })
      .delete('dir')
      .catch((reason: unknown) => reason);
    expect(commands).toEqual(['DeleteObjectCommand', 'ListObjectsV2Command', 'DeleteObjectsCommand']);
    expect(error).toMatchObject({ code: 'backend_error', path: 'dir', location: 's3://b/p/dir/b' });
    expect((error as StoreError).message).toContain('AccessDenied');
  });

  it('names the batch’s first key when the failure names none', async () => {
    const { client } = scriptedClient([{}, listing, { Errors: [{ Code: 'InternalError' }] }]);
    const error = await createS3FileStore({ bucket: 'b', prefix: 'p', client })
      .delete('dir')
      .catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'backend_error', location: 's3://b/p/dir/a' });
  });
});

describe('createS3FileStore options', () => {
  it.each([0, -1, 1001, 1.5, Number.NaN])('refuses listPageSize %s, naming the option', (listPageSize) => {
    const { client, commands } = scriptedClient([]);
    const attempt = () => createS3FileStore({ bucket: 'b', client, listPageSize });
    expect(attempt).toThrow(InvalidStoreOptionsError);
    expect(attempt).toThrow(/'listPageSize'.*1 to 1000/);
    expect(commands).toEqual([]);
  });

  it('takes the bounds of listPageSize, and pages listings by it', async () => {
    for (const listPageSize of [1, 1000]) expect(() => createS3FileStore({ bucket: 'b', listPageSize })).not.toThrow();
    const { client, commands } = scriptedClient([
      { Contents: [{ Key: 'dir/a' }], IsTruncated: true, NextContinuationToken: 't' },
      { Contents: [{ Key: 'dir/b' }], IsTruncated: false },
    ]);
    expect(await createS3FileStore({ bucket: 'b', client, listPageSize: 1 }).list('dir')).toEqual(['dir/a', 'dir/b']);
    expect(commands).toEqual(['ListObjectsV2Command', 'ListObjectsV2Command']);
  });

  it('refuses a missing or empty bucket name', () => {
    expect(() => createS3FileStore({ bucket: '' })).toThrow(/'bucket'/);
    expect(() => createS3FileStore({} as { bucket: string })).toThrow(InvalidStoreOptionsError);
  });
});
