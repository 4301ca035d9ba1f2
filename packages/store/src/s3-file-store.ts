import type { ListObjectsV2CommandOutput, S3Client } from '@aws-sdk/client-s3';
import { FileNotFoundError } from './errors/file-not-found-error.js';
import { InvalidStoreOptionsError } from './errors/invalid-store-options-error.js';
import { StoreBackendError } from './errors/store-backend-error.js';
import type { FileStore } from './file-store.js';
import { sortByCodePoint } from './internal/compare-code-points.js';
import { loadOptionalDependency } from './internal/load-optional-dependency.js';
import { s3ErrorName, s3Status, toS3StoreError } from './internal/s3-errors.js';
import { validateStorePath } from './store-path.js';

export interface S3FileStoreOptions {
  bucket: string;
  /** Key prefix under which the store lives, e.g. `conversations/` (a trailing `/` is added if missing). */
  prefix?: string;
  /** Defaults to `AWS_REGION`, then `AWS_DEFAULT_REGION`, then `us-east-1`. Ignored when `client` is given. */
  region?: string;
  /** For S3-compatible services (MinIO, R2, moto): their URL. Ignored when `client` is given. */
  endpoint?: string;
  /** Address buckets as `endpoint/bucket` instead of `bucket.endpoint`; MinIO and moto need it. */
  forcePathStyle?: boolean;
  /** Defaults to the SDK's credential chain (environment, profile, instance role). */
  credentials?: S3Credentials | (() => Promise<S3Credentials>);
  /**
   * An `S3Client` from `@aws-sdk/client-s3` to use instead of creating one; the options above are then ignored.
   * Typed structurally so that this package's types do not require the SDK (an optional peer) to be installed.
   */
  client?: S3ClientLike;
  /** Keys requested per ListObjectsV2 page (1–1000, default 1000). Lower only to exercise paging. */
  listPageSize?: number;
}

/** Static credentials, as the AWS SDK takes them. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The one method of the SDK's `S3Client` this store uses. */
export interface S3ClientLike {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's commands are generic over their input and output types.
  send(command: any): Promise<any>;
}

type S3Sdk = typeof import('@aws-sdk/client-s3');

/**
 * The AWS SDK is loaded on first use, not when @x/store is imported: it costs about 100 ms and 16 MB,
 * which every program not using S3 (a CLI start, a local conversation) would otherwise pay. It is an optional
 * peer dependency; without it the first operation throws `MissingDependencyError`.
 */
function loadSdk(): Promise<S3Sdk> {
  return loadOptionalDependency('The S3 store', '@aws-sdk/client-s3', () => import('@aws-sdk/client-s3'));
}

/** DeleteObjects takes at most 1000 keys per request. */
const DELETE_BATCH = 1000;
/** Attempts of a conditional put that S3 answers with 409 ConditionalRequestConflict. */
const CONFLICT_ATTEMPTS = 5;

/**
 * A FileStore on S3 or an S3-compatible service. `write` is a single PutObject (atomic on S3);
 * `writeIfAbsent` is PutObject with `If-None-Match: *`, which S3 turns into 412 when the key exists,
 * so exactly one of any number of racing writers wins. The service must support conditional writes
 * (AWS S3 since 2024, MinIO, R2, moto do; s3rver silently ignores them).
 */
export function createS3FileStore(options: S3FileStoreOptions): FileStore {
  const { bucket } = options;
  if (typeof bucket !== 'string' || bucket === '') {
    throw new InvalidStoreOptionsError('bucket', `expected a bucket name, got ${JSON.stringify(bucket)}`);
  }
  const prefixDirectory = validateStorePath(options.prefix ?? '', { allowTrailingSlash: true });
  const keyPrefix = prefixDirectory === '' ? '' : `${prefixDirectory}/`;
  const pageSize = options.listPageSize ?? 1000;
  // Outside 1–1000 S3 answers pages that are not what was asked: MaxKeys 0 is an empty listing, not an error.
  if (!(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000)) {
    throw new InvalidStoreOptionsError('listPageSize', `expected an integer from 1 to 1000, got ${String(pageSize)}`);
  }
  let connecting: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;
  const connect = (): Promise<{ sdk: S3Sdk; client: S3Client }> => {
    connecting ??= loadSdk().then(
      (sdk) => ({ sdk, client: (options.client as S3Client | undefined) ?? createClient(sdk) }),
      (error: unknown) => {
        // Not kept: once the SDK is installed, the same store works without a restart.
        connecting = undefined;
        throw error;
      },
    );
    return connecting;
  };
  const createClient = (sdk: S3Sdk): S3Client =>
    new sdk.S3Client({
      region: options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // Checksums only where S3 demands them: S3-compatible servers do not all accept the default
      // CRC trailers (s3rver stores the aws-chunked framing inside the object).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });

  const location = (key: string): string => `s3://${bucket}/${key}`;

  async function* pages(input: { prefix: string; delimiter?: string }) {
    const { sdk, client } = await connect();
    let token: string | undefined;
    do {
      const page: ListObjectsV2CommandOutput = await client.send(
        new sdk.ListObjectsV2Command({
          Bucket: bucket,
          Prefix: input.prefix,
          Delimiter: input.delimiter,
          MaxKeys: pageSize,
          ContinuationToken: token,
        }),
      );
      yield page;
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  const deleteBatch = async (keys: string[], path: string): Promise<void> => {
    const { sdk, client } = await connect();
    const result = await client.send(
      new sdk.DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    const failure = result.Errors?.[0];
    if (failure !== undefined) {
      throw new StoreBackendError({
        operation: 'delete',
        path,
        location: location(failure.Key ?? keys[0] ?? ''),
        backendCode: failure.Code,
        detail: `DeleteObjects failed for ${result.Errors?.length} key(s), first ${failure.Key}: ${failure.Message}`,
      });
    }
  };

  const putIfAbsent = async (key: string, data: string | Uint8Array): Promise<boolean> => {
    const { sdk, client } = await connect();
    for (let attempt = 1; ; attempt++) {
      try {
        await client.send(new sdk.PutObjectCommand({ ...body(data), Bucket: bucket, Key: key, IfNoneMatch: '*' }));
        return true;
      } catch (error) {
        if (s3Status(error) === 412 || s3ErrorName(error) === 'PreconditionFailed') return false;
        // 409: a concurrent conditional write on this key is in flight; retrying yields a clear 200 or 412.
        const conflict = s3Status(error) === 409 || s3ErrorName(error) === 'ConditionalRequestConflict';
        if (!conflict || attempt >= CONFLICT_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 20));
      }
    }
  };

  return {
    async read(path) {
      const { sdk, client } = await connect();
      const key = keyPrefix + validateStorePath(path);
      try {
        const response = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
        return (await response.Body?.transformToString('utf-8')) ?? '';
      } catch (error) {
        if (s3ErrorName(error) === 'NoSuchKey')
          throw new FileNotFoundError({ path, location: location(key), cause: error });
        throw toS3StoreError(error, { operation: 'read', path, location: location(key) });
      }
    },

    async write(path, data) {
      const { sdk, client } = await connect();
      const key = keyPrefix + validateStorePath(path);
      try {
        await client.send(new sdk.PutObjectCommand({ ...body(data), Bucket: bucket, Key: key }));
      } catch (error) {
        throw toS3StoreError(error, { operation: 'write', path, location: location(key) });
      }
    },

    async writeIfAbsent(path, data) {
      const key = keyPrefix + validateStorePath(path);
      try {
        return await putIfAbsent(key, data);
      } catch (error) {
        throw toS3StoreError(error, { operation: 'writeIfAbsent', path, location: location(key) });
      }
    },

    /**
     * The two calls, but with `deferThen` the event object's PutObject is not waited for: the claim (a
     * conditional PutObject) is the commit point and holds the whole event, so the append costs one
     * request's latency instead of two. The event object is validated first, so a bad path claims nothing.
     */
    async writeIfAbsentThenWrite(first, then, onCreated, options = {}) {
      validateStorePath(then.path);
      if (!(await this.writeIfAbsent(first.path, first.data))) return false;
      onCreated();
      const written = this.write(then.path, then.data);
      if (options.deferThen === undefined) await written;
      else options.deferThen(written);
      return true;
    },

    async copy(from, to) {
      const { sdk, client } = await connect();
      const source = keyPrefix + validateStorePath(from);
      const key = keyPrefix + validateStorePath(to);
      try {
        // Server-side copy: the bytes never come back through this process. CopyObject is atomic.
        const copySource = `${bucket}/${source.split('/').map(encodeURIComponent).join('/')}`;
        await client.send(new sdk.CopyObjectCommand({ Bucket: bucket, Key: key, CopySource: copySource }));
      } catch (error) {
        // A bare 404 (some S3-compatible servers name no code) is the source too, but not a missing bucket.
        if (s3ErrorName(error) === 'NoSuchKey' || (s3Status(error) === 404 && s3ErrorName(error) !== 'NoSuchBucket')) {
          throw new FileNotFoundError({ path: from, location: location(source), cause: error });
        }
        throw toS3StoreError(error, { operation: 'copy', path: to, location: location(key) });
      }
    },

    async list(prefix) {
      const directory = validateStorePath(prefix, { allowTrailingSlash: true });
      const listPrefix = directory === '' ? keyPrefix : `${keyPrefix}${directory}/`;
      const entries: string[] = [];
      try {
        for await (const page of pages({ prefix: listPrefix, delimiter: '/' })) {
          for (const common of page.CommonPrefixes ?? []) {
            const name = common.Prefix?.slice(listPrefix.length, -1);
            if (name !== undefined && isStoreName(name)) entries.push(`${common.Prefix?.slice(keyPrefix.length)}`);
          }
          for (const object of page.Contents ?? []) {
            const name = object.Key?.slice(listPrefix.length);
            // Skips "folder marker" objects (keys ending in "/") and names no store path could produce.
            if (name !== undefined && isStoreName(name)) entries.push(`${object.Key?.slice(keyPrefix.length)}`);
          }
        }
      } catch (error) {
        throw toS3StoreError(error, { operation: 'list', path: prefix, location: location(listPrefix) });
      }
      return sortByCodePoint(entries);
    },

    async delete(path) {
      const { sdk, client } = await connect();
      const key = keyPrefix + validateStorePath(path);
      try {
        await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
        let batch: string[] = [];
        for await (const page of pages({ prefix: `${key}/` })) {
          for (const object of page.Contents ?? []) {
            if (object.Key === undefined) continue;
            batch.push(object.Key);
            if (batch.length === DELETE_BATCH) {
              await deleteBatch(batch, path);
              batch = [];
            }
          }
        }
        if (batch.length > 0) await deleteBatch(batch, path);
      } catch (error) {
        throw toS3StoreError(error, { operation: 'delete', path, location: location(key) });
      }
    },

    async exists(path) {
      const { sdk, client } = await connect();
      const key = keyPrefix + validateStorePath(path);
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (s3Status(error) !== 404)
          throw toS3StoreError(error, { operation: 'exists', path, location: location(key) });
      }
      try {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: `${key}/`, MaxKeys: 1 }));
        return (page.KeyCount ?? page.Contents?.length ?? 0) > 0;
      } catch (error) {
        throw toS3StoreError(error, { operation: 'exists', path, location: location(`${key}/`) });
      }
    },

    describe(path) {
      return location(keyPrefix + validateStorePath(path, { allowTrailingSlash: true }));
    },
  };
}

/** A known length spares the SDK from treating the body (an empty string in particular) as a stream. */
function body(data: string | Uint8Array): { Body: string | Uint8Array; ContentLength: number } {
  return { Body: data, ContentLength: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength };
}

function isStoreName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}
