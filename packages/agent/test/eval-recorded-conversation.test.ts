import { mkdir, mkdtemp, readdir, readlink, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createEvent } from '@x/events';
import { createLocalFileStore, EventLog } from '@x/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalConversationNotFoundError, locateConversation, readRecordedConversation } from '../src/index.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-recorded-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A conversation directory holding `count` user messages, written through the event log as a run would. */
async function conversationDir(name: string, count: number, baseState?: unknown): Promise<string> {
  const store = createLocalFileStore({ root, durability: 'none' });
  const log = await EventLog.open(store, { dir: `${name}/events` });
  await log.appendMany(
    Array.from({ length: count }, (_, index) =>
      createEvent('MessageEvent', {
        source: 'user',
        llm_message: { role: 'user', content: [{ type: 'text', text: `message ${index}` }] },
      }),
    ),
  );
  await log.close();
  if (baseState !== undefined) await writeFile(join(root, name, 'base_state.json'), JSON.stringify(baseState));
  return join(root, name);
}

/** Every file under `dir` with its size and modification time: what a reader must leave as it was. */
async function snapshot(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  const described = await Promise.all(
    files.map(async (file) => {
      const info = await stat(file);
      return `${relative(dir, file)} ${info.size} ${info.mtimeMs}`;
    }),
  );
  return described.sort();
}

describe('readRecordedConversation', () => {
  it('reads every event of a one-event log, the first and the last', async () => {
    const location = await conversationDir('one', 1);
    const recording = await readRecordedConversation(location);
    expect(recording.events.map((event) => event.kind)).toEqual(['MessageEvent']);
    expect(recording.id).toBe('one');
    expect(recording.workspace).toBeUndefined();
  });

  it('reads a long log whole, without writing to its directory (no roll-forward of a missing event file, no packs)', async () => {
    const location = await conversationDir('long', 1100, { id: 'long-id', workspace: { working_dir: '/w' } });
    // As if its writer crashed after committing event 7 but before publishing its event file.
    const events = join(location, 'events');
    const seventh = (await readdir(events)).find((name) => name.startsWith('event-00007-'))!;
    await unlink(join(events, seventh));
    await rm(join(events, '.slots', 'name-index'), { force: true });
    const before = await snapshot(location);

    const recording = await readRecordedConversation(location);
    expect(recording.events).toHaveLength(1100);
    const text = (index: number) => JSON.stringify(recording.events[index]);
    expect(text(0)).toContain('message 0');
    expect(text(7)).toContain('message 7');
    expect(text(1099)).toContain('message 1099');
    expect(recording).toMatchObject({ id: 'long-id', workspace: '/w' });
    // A second reader settles whatever the first might have left running.
    await readRecordedConversation(location);
    expect(await snapshot(location)).toEqual(before);
  });

  it('leaves a long log without its name index as it found it (a reader may be looking at a live run)', async () => {
    const location = await conversationDir('unindexed', 1100);
    await rm(join(location, 'events', '.slots', 'name-index'), { force: true });
    const before = await snapshot(location);
    expect((await readRecordedConversation(location)).events).toHaveLength(1100);
    await readRecordedConversation(location);
    expect(await snapshot(location)).toEqual(before);
  });
});

describe('locateConversation', () => {
  it('takes a directory relative to the suite that holds events, or only a base_state.json', async () => {
    const withEvents = await conversationDir('only-events', 1);
    expect(locateConversation('./only-events', { caseId: 'c', directory: root, persistenceDir: root })).toBe(
      withEvents,
    );
    await mkdir(join(root, 'only-base'));
    await writeFile(join(root, 'only-base', 'base_state.json'), '{}');
    expect(locateConversation('only-base', { caseId: 'c', directory: root, persistenceDir: root })).toBe(
      join(root, 'only-base'),
    );
  });

  it('skips a directory that is no conversation and finds the id (hyphens and case aside) in the data directory', async () => {
    const data = join(root, 'data');
    await mkdir(join(root, 'suite', 'ABCD-12'), { recursive: true });
    await mkdir(join(data, 'abcd12', 'events'), { recursive: true });
    expect(locateConversation('ABCD-12', { caseId: 'c', directory: join(root, 'suite'), persistenceDir: data })).toBe(
      join(data, 'abcd12'),
    );
  });

  it('throws EvalConversationNotFoundError naming the case and both places it looked', () => {
    let caught: unknown;
    try {
      locateConversation('nowhere', { caseId: 'lost', directory: join(root, 'suite'), persistenceDir: root });
    } catch (error) {
      caught = error;
    }
    expect(EvalConversationNotFoundError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ caseId: 'lost', reference: 'nowhere' });
    expect((caught as Error).message).toContain(join(root, 'suite', 'nowhere'));
    expect((caught as Error).message).toContain(join(root, 'nowhere'));
  });

  it('does not take a file for a conversation', async () => {
    await writeFile(join(root, 'file-conv'), 'not a directory');
    const data = join(root, 'empty-data');
    await mkdir(data);
    expect(() => locateConversation('file-conv', { caseId: 'c', directory: root, persistenceDir: data })).toThrow(
      /no conversation "file-conv"/,
    );
  });
});

describe('readRecordedConversation and the files it opens', () => {
  it('leaves nothing of the conversation open once read (a segment-layout log included)', async () => {
    const store = createLocalFileStore({ root, durability: 'none' });
    const log = await EventLog.open(store, { dir: 'segmented/events', layout: 'segment' });
    await log.append(
      createEvent('MessageEvent', {
        source: 'user',
        llm_message: { role: 'user', content: [{ type: 'text', text: 'kept in a segment' }] },
      }),
    );
    await log.close();
    const location = join(root, 'segmented');
    const openUnder = async (): Promise<string[]> => {
      const targets = await Promise.all(
        (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
      );
      return targets.filter((target) => target.startsWith(location));
    };
    const recorded = await readRecordedConversation(location);
    expect(recorded.events).toHaveLength(1);
    expect(await openUnder()).toEqual([]);
  });
});
