import { createMemoryFileStore, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { artifactPath } from '../src/session/artifact-files.js';
import { InvalidArtifactNameError } from '../src/session/session-errors.js';
import { sessionOnMemory } from './support/session-on-memory.js';

// What an artifact name may be: every name that passes must be a file on every store, and every name that cannot
// be one is refused with InvalidArtifactNameError before anything is written or read.
const refused = [
  ['', 'empty'],
  ['a'.repeat(201), 'longer than 200'],
  ['a/b', 'slash'],
  ['..\\escape', 'slash'],
  ['tab\there', 'control character'],
  ['bell\u0007', 'control character'],
  ['delete\u007f', 'control character'],
  ['.', 'relative path'],
  ['..', 'relative path'],
  ['half\ud800', 'lone UTF-16 surrogate'],
  ['é'.repeat(50), 'URI-encoded'],
  [' '.repeat(100), 'URI-encoded'],
  // 256 characters URI-encoded: one past what a POSIX file name holds.
  [`abcd${'é'.repeat(42)}`, 'URI-encoded'],
  ['__proto__', 'reserved'],
] as const;

describe('artifact names', () => {
  it.each(refused)('refuses %j (%s) on save, load and listing, writing nothing', async (name, why) => {
    const { session, events, store } = sessionOnMemory();
    const saving = await session.saveArtifact(name, 'x').catch((error: unknown) => error);
    expect(saving).toBeInstanceOf(InvalidArtifactNameError);
    expect((saving as Error).message).toContain(why);
    expect(saving).toMatchObject({ code: 'invalid_artifact_name', artifactName: name });
    await expect(session.loadArtifact(name, 1)).rejects.toBeInstanceOf(InvalidArtifactNameError);
    expect(() => session.artifactVersions(name)).toThrow(InvalidArtifactNameError);
    expect(events).toEqual([]);
    expect(await store.list('')).toEqual([]);
  });

  it('refuses a name that is not a string', async () => {
    const { session } = sessionOnMemory();
    await expect(session.saveArtifact(7 as unknown as string, 'x')).rejects.toBeInstanceOf(InvalidArtifactNameError);
  });

  it.each([
    'a',
    'a'.repeat(200),
    'my notes.md',
    '...',
    '.env',
    '~tilde(1)!',
    '%2e%2e',
    // 255 characters URI-encoded, the most a POSIX file name holds.
    `abc${'é'.repeat(42)}`,
    '😀 smile',
    'constructor',
    'toString',
    'hasOwnProperty',
  ])('keeps %j as one file under the conversation’s artifacts, versioned from 1', async (name) => {
    const { session, store, directory } = sessionOnMemory();
    expect(await session.saveArtifact(name, 'one')).toEqual({ name, version: 1 });
    expect(await session.saveArtifact(name, 'two')).toEqual({ name, version: 2 });
    expect(session.artifacts).toEqual({ [name]: 2 });
    expect(session.artifactVersions(name)).toEqual([1, 2]);
    expect((await session.loadArtifact(name, 1)).text()).toBe('one');
    expect((await session.loadArtifact(name)).text()).toBe('two');
    const folder = `${directory}/artifacts/${encodeURIComponent(name)}`;
    expect(await store.list(`${directory}/artifacts`)).toEqual([`${folder}/`]);
    expect(await store.list(folder)).toEqual([`${folder}/v1`, `${folder}/v2`]);
  });

  it('names the file by the URI-encoded name, so no name reaches outside its own folder', () => {
    expect(artifactPath('conversations/c1', 'report.md', 3)).toBe('conversations/c1/artifacts/report.md/v3');
    expect(artifactPath('conversations/c1', 'a b?#', 1)).toBe('conversations/c1/artifacts/a%20b%3F%23/v1');
  });
});

describe('artifact versions', () => {
  it('never overwrites a version already on the store: a save after a lost record takes the next one', async () => {
    const store: FileStore = createMemoryFileStore();
    const { session, directory } = sessionOnMemory(store);
    // A writer that crashed after writing version 1 but before recording it.
    await store.write(artifactPath(directory, 'plan.md', 1), 'theirs');
    expect(await session.saveArtifact('plan.md', 'mine')).toEqual({ name: 'plan.md', version: 2 });
    expect(await store.read(artifactPath(directory, 'plan.md', 1))).toBe('theirs');
    expect((await session.loadArtifact('plan.md')).text()).toBe('mine');
  });
});
