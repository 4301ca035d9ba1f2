import { createHash } from 'node:crypto';
import { FileNotFoundError, type FileStore } from '@x/store';
import { z } from 'zod';
import {
  type CheckpointManifest,
  checkpointDirectorySchema,
  checkpointFileSchema,
  checkpointId,
  checkpointManifestSchema,
  skippedFileSchema,
} from './checkpoint-manifest.js';
import { CheckpointDamagedError } from './errors/checkpoint-damaged-error.js';
import { CheckpointWriteError } from './errors/checkpoint-write-error.js';

/** The entries of one directory of a checkpoint (not those of its subdirectories). */
const chunkSchema = z.object({
  files: z.array(checkpointFileSchema),
  symlinks: z.array(z.object({ path: z.string().min(1), target: z.string() })),
  skipped: z.array(skippedFileSchema),
  /** The directories directly in this one (absent when none, and in chunks written before directories were kept). */
  directories: z.array(checkpointDirectorySchema).optional(),
});
type Chunk = z.infer<typeof chunkSchema>;

/** A stored tree: one content-addressed chunk per directory, so a step that changed a few files writes a few chunks. */
const storedTreeSchema = z.object({
  version: z.literal(2),
  taken_ms: z.number().optional(),
  /** The tree records its directories (in its chunks); absent in trees written before, which have none. */
  with_directories: z.literal(true).optional(),
  dirs: z.array(z.object({ dir: z.string(), chunk: z.string().regex(/^[0-9a-f]{64}$/) })),
});

const READS_IN_FLIGHT = 32;

/** Where a checkpoint's trees live under the store's `root`, and which chunks are known to be there. */
export interface TreeLocation {
  readonly store: FileStore;
  readonly root: string;
  readonly knownChunks: Set<string>;
}

const treePath = (at: TreeLocation, id: string) => `${at.root}/trees/${id}.json`;
const chunkPath = (at: TreeLocation, sha: string) => `${at.root}/chunks/${sha}.json`;

/**
 * Stores a checkpoint's tree: each directory's entries as a chunk named by its SHA-256 (written once), and the
 * list of chunks as `trees/<checkpoint id>.json`. Returns the checkpoint id.
 */
export async function writeTree(at: TreeLocation, manifest: CheckpointManifest): Promise<string> {
  const id = checkpointId(manifest);
  const chunks = new Map<string, Chunk>();
  const chunkOf = (path: string) => {
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    let chunk = chunks.get(dir);
    if (chunk === undefined) {
      chunk = { files: [], symlinks: [], skipped: [] };
      chunks.set(dir, chunk);
    }
    return chunk;
  };
  for (const file of manifest.files) chunkOf(file.path).files.push(file);
  for (const link of manifest.symlinks) chunkOf(link.path).symlinks.push(link);
  for (const file of manifest.skipped) chunkOf(file.path).skipped.push(file);
  for (const directory of manifest.directories ?? []) {
    const chunk = chunkOf(directory.path);
    if (chunk.directories === undefined) chunk.directories = [];
    chunk.directories.push(directory);
  }
  const dirs: { dir: string; chunk: string }[] = [];
  for (const [dir, chunk] of [...chunks].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const text = JSON.stringify(chunk);
    const sha = createHash('sha256').update(text).digest('hex');
    if (!at.knownChunks.has(sha)) {
      await write(at, chunkPath(at, sha), text);
      at.knownChunks.add(sha);
    }
    dirs.push({ dir, chunk: sha });
  }
  const stored = {
    version: 2,
    ...(manifest.taken_ms === undefined ? {} : { taken_ms: manifest.taken_ms }),
    ...(manifest.directories === undefined ? {} : { with_directories: true }),
    dirs,
  };
  await write(at, treePath(at, id), JSON.stringify(stored));
  return id;
}

/** The tree of checkpoint `id`; `CheckpointDamagedError` naming the tree or chunk that is missing or wrong. */
export async function readTree(at: TreeLocation, id: string): Promise<CheckpointManifest> {
  const path = treePath(at, id);
  const json = await readJson(at, path);
  const flat = checkpointManifestSchema.safeParse(json);
  let manifest: CheckpointManifest;
  if (flat.success) {
    manifest = flat.data;
  } else {
    const stored = parse(storedTreeSchema, json, at.store.describe(path));
    manifest = { version: 1, files: [], symlinks: [], skipped: [] };
    if (stored.taken_ms !== undefined) manifest.taken_ms = stored.taken_ms;
    const directories: NonNullable<CheckpointManifest['directories']> = [];
    for (let start = 0; start < stored.dirs.length; start += READS_IN_FLIGHT) {
      const batch = stored.dirs.slice(start, start + READS_IN_FLIGHT);
      const chunks = await Promise.all(batch.map(({ chunk }) => readChunk(at, chunk)));
      for (const chunk of chunks) {
        manifest.files.push(...chunk.files);
        manifest.symlinks.push(...chunk.symlinks);
        manifest.skipped.push(...chunk.skipped);
        directories.push(...(chunk.directories ?? []));
      }
    }
    if (stored.with_directories === true) manifest.directories = directories;
    const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    manifest.files.sort(byPath);
    manifest.symlinks.sort(byPath);
    manifest.skipped.sort(byPath);
    manifest.directories?.sort(byPath);
  }
  if (checkpointId(manifest) !== id) {
    throw new CheckpointDamagedError(at.store.describe(path), `its content is not checkpoint ${id}`);
  }
  return manifest;
}

async function readChunk(at: TreeLocation, sha: string): Promise<Chunk> {
  const path = chunkPath(at, sha);
  const text = await readText(at, path);
  const actual = createHash('sha256').update(text).digest('hex');
  if (actual !== sha) throw new CheckpointDamagedError(at.store.describe(path), `its content hashes to ${actual}`);
  return parse(chunkSchema, JSON.parse(text), at.store.describe(path));
}

async function readJson(at: TreeLocation, path: string): Promise<unknown> {
  const text = await readText(at, path);
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new CheckpointDamagedError(at.store.describe(path), 'not valid JSON', { cause });
  }
}

async function readText(at: TreeLocation, path: string): Promise<string> {
  try {
    return await at.store.read(path);
  } catch (cause) {
    const detail = FileNotFoundError.isInstance(cause) ? 'missing' : (cause as Error).message;
    throw new CheckpointDamagedError(at.store.describe(path), detail, { cause });
  }
}

function parse<T>(schema: z.ZodType<T>, json: unknown, location: string): T {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CheckpointDamagedError(location, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`);
}

async function write(at: TreeLocation, path: string, text: string): Promise<void> {
  try {
    await at.store.writeIfAbsent(path, text);
  } catch (cause) {
    throw new CheckpointWriteError(at.store.describe(path), { cause });
  }
}
