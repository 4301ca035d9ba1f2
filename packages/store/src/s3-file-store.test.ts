import type { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
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
});
