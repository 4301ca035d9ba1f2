import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Conversation,
  defaultTools,
  defineTool,
  InvalidArtifactNameError,
  InvalidStateDeltaError,
  UnknownArtifactError,
} from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

/** A tool that sets session state and saves an artifact version, as a tool author would. */
const noteTool = defineTool({
  name: 'save_note',
  description: 'Saves a note as an artifact and counts notes in the session state.',
  parameters: z.object({ text: z.string() }),
  async execute(action, context) {
    const session = context.conversation?.session;
    if (session === undefined) throw new Error('no session');
    const { version } = await session.saveArtifact('notes.md', action.text);
    await session.update({ notes: version, last_note: action.text });
    return { content: `saved version ${version}` };
  },
});

describe('session state and artifacts', () => {
  it('folds state deltas and artifact versions set by tools and the library; a resume has them all', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'save_note', arguments: { text: 'first draft' } }] },
      { toolCalls: [{ name: 'save_note', arguments: { text: 'second draft' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
    ]);
    const agent = harness.agent({ tools: [...defaultTools(), noteTool] });
    const { conversation, events } = await harness.conversation({ agent });
    await conversation.session.update({ user: 'ada', theme: 'dark' });
    await conversation.sendMessage('write notes');
    await conversation.run();
    await conversation.session.update({ theme: null });

    expect(conversation.session.state).toEqual({ user: 'ada', notes: 2, last_note: 'second draft' });
    expect(conversation.session.artifacts).toEqual({ 'notes.md': 2 });
    expect(conversation.session.artifactVersions('notes.md')).toEqual([1, 2]);
    expect((await conversation.session.loadArtifact('notes.md', 1)).text()).toBe('first draft');
    expect((await conversation.session.loadArtifact('notes.md')).text()).toBe('second draft');
    // Recorded as events the reference knows (it accepts any state-update key).
    const keys = events.filter((event) => event.kind === 'ConversationStateUpdateEvent').map((event) => event.key);
    expect(keys.filter((key) => key === 'state_delta')).toHaveLength(4);
    expect(keys.filter((key) => key === 'artifact_delta')).toHaveLength(2);
    await conversation.close();

    const resumed = await Conversation.resume(conversation.id, {
      agent,
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
    });
    expect(resumed.session.state).toEqual({ user: 'ada', notes: 2, last_note: 'second draft' });
    expect((await resumed.session.loadArtifact('notes.md', 1)).text()).toBe('first draft');
    const file = await readFile(join(harness.persistenceDir, resumed.directory, 'artifacts', 'notes.md', 'v2'), 'utf8');
    expect(JSON.parse(file).mime_type).toMatch(/^text\/plain/);
    await resumed.close();
  });

  it('saves binary artifacts on a memory store, and gives typed errors for bad names, versions and deltas', async () => {
    harness = await startHarness();
    const { conversation, events } = await harness.conversation({ store: harness.memoryStore() });
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    expect(await conversation.session.saveArtifact('image.bin', bytes, { mimeType: 'image/x-test' })).toEqual({
      name: 'image.bin',
      version: 1,
    });
    const loaded = await conversation.session.loadArtifact('image.bin');
    expect([...loaded.data]).toEqual([...bytes]);
    expect(loaded.mimeType).toBe('image/x-test');

    const before = events.length;
    await expect(conversation.session.saveArtifact('../escape', 'x')).rejects.toBeInstanceOf(InvalidArtifactNameError);
    await expect(conversation.session.saveArtifact('', 'x')).rejects.toBeInstanceOf(InvalidArtifactNameError);
    await expect(conversation.session.loadArtifact('image.bin', 7)).rejects.toBeInstanceOf(UnknownArtifactError);
    await expect(conversation.session.loadArtifact('missing')).rejects.toBeInstanceOf(UnknownArtifactError);
    await expect(conversation.session.update([] as unknown as Record<string, unknown>)).rejects.toBeInstanceOf(
      InvalidStateDeltaError,
    );
    await expect(conversation.session.update({ when: () => 1 })).rejects.toBeInstanceOf(InvalidStateDeltaError);
    expect(events.length).toBe(before);
    await conversation.close();
  });
});
