import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  Conversation,
  ConversationNotFoundError,
  createOfflineLLM,
  InvalidConversationIdError,
} from '../src/index.js';

// A conversation directory copied or renamed (a backup, `x run --resume ./copy-1`) is resumed, and written,
// where it is: its base_state.json, events and artifacts never go to the directory its recorded id names.

const agent = () =>
  new Agent({ llm: createOfflineLLM({ script: () => ({ content: 'done', toolCalls: [] }) }), tools: [] });

let root: string;
/** The conversations' workspace, beside the store (a workspace that holds its store is refused). */
let workspace: string;
const opened: Conversation[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-renamed-'));
  workspace = await mkdtemp(join(tmpdir(), 'x-renamed-workspace-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((conversation) => conversation.close()));
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

const eventFiles = async (dir: string) =>
  (await readdir(join(root, dir, 'events'))).filter((name) => name.startsWith('event-')).sort();

/** A finished conversation with an artifact, closed, and its directory copied to `copyName`. */
async function copiedConversation(copyName: string) {
  const original = await Conversation.create({ agent: agent(), persistenceDir: root, workspace });
  await original.session.saveArtifact('notes.md', 'first draft');
  await original.sendMessage('hello');
  await original.run();
  await original.close();
  await cp(join(root, original.directory), join(root, copyName), { recursive: true });
  return { id: original.id, directory: original.directory, events: await eventFiles(original.directory) };
}

describe('resuming a conversation whose directory is not named by its id', () => {
  it('reads and writes the directory it was found in, keeping the recorded id', async () => {
    const original = await copiedConversation('backup-1');
    const copy = await Conversation.resume('backup-1', { agent: agent(), persistenceDir: root, workspace });
    opened.push(copy);
    expect(copy.id).toBe(original.id);
    expect(copy.directory).toBe('backup-1');
    await copy.sendMessage('and again');
    await copy.run();
    await copy.session.saveArtifact('notes.md', 'second draft');

    // The copy has grown; the original is as it was closed, and no third directory appeared.
    expect((await eventFiles('backup-1')).length).toBeGreaterThan(original.events.length);
    expect(await eventFiles(original.directory)).toEqual(original.events);
    expect((await readdir(root)).sort()).toEqual(['backup-1', original.directory].sort());
    const copyState = JSON.parse(await readFile(join(root, 'backup-1', 'base_state.json'), 'utf8'));
    expect(copyState.id).toBe(original.id);
    expect(copyState.execution_status).toBe('finished');

    // A fork of the copy loads the artifact versions from the copy's directory.
    const fork = await copy.fork();
    opened.push(fork);
    expect((await fork.session.loadArtifact('notes.md', 1)).text()).toBe('first draft');
    expect((await fork.session.loadArtifact('notes.md')).text()).toBe('second draft');
  });

  it('keeps the UUID a reference-written copy records (the reference reads nothing else there)', async () => {
    const fixture = new URL('../../events/test/__fixtures__/openhands/01_simple_message_reply/', import.meta.url);
    await cp(fixture, join(root, 'reference-backup'), { recursive: true });
    const recorded = JSON.parse(await readFile(join(root, 'reference-backup', 'base_state.json'), 'utf8')).id;
    const copy = await Conversation.resume('reference-backup', {
      agent: agent(),
      persistenceDir: root,
      workspace,
    });
    opened.push(copy);
    expect(copy.id).toBe(recorded);
    await copy.sendMessage('and again');
    await copy.run();
    await copy.close();
    const written = JSON.parse(await readFile(join(root, 'reference-backup', 'base_state.json'), 'utf8'));
    expect(written.id).toBe(recorded);
    expect((await readdir(root)).sort()).toEqual(['reference-backup']);
  });

  it('prefers the directory named by the id, and still names a missing one', async () => {
    const original = await copiedConversation('ignored');
    const byId = await Conversation.resume(original.id, { agent: agent(), persistenceDir: root, workspace });
    opened.push(byId);
    expect(byId.directory).toBe(original.directory);
    await expect(
      Conversation.resume('no-such-copy', { agent: agent(), persistenceDir: root, workspace }),
    ).rejects.toBeInstanceOf(ConversationNotFoundError);
  });

  it('resumes a copy that holds only its events (its first base_state.json never written)', async () => {
    const original = await copiedConversation('backup-2');
    await rm(join(root, 'backup-2', 'base_state.json'));
    const copy = await Conversation.resume('backup-2', { agent: agent(), persistenceDir: root, workspace });
    opened.push(copy);
    expect(copy.directory).toBe('backup-2');
    expect(copy.state.event_count).toBe(original.events.length);
    expect(copy.state.execution_status).toBe('finished');
  });

  it('refuses an id with a slash, never taking it as a path to a nested directory', async () => {
    await copiedConversation(join('nested', 'copy-1'));
    await expect(
      Conversation.resume('nested/copy-1', { agent: agent(), persistenceDir: root, workspace }),
    ).rejects.toBeInstanceOf(InvalidConversationIdError);
  });
});
