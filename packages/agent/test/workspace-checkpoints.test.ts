import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { AnyEvent, ObservationEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CHECKPOINT_KEY,
  CheckpointDamagedError,
  Conversation,
  compareConversations,
  createOpenAILLM,
  UnknownEventError,
} from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const terminal = (command: string) => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

/** Every file under `dir` with its content, by relative path (what the workspace holds). */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files[relative(dir, path)] = await readFile(path, 'utf8');
    }
  };
  await walk(dir);
  return files;
}

function observations(events: readonly AnyEvent[]): ObservationEvent[] {
  return events.filter((event): event is ObservationEvent => event.kind === 'ObservationEvent');
}

function checkpointRecords(events: readonly AnyEvent[]) {
  return events.filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === CHECKPOINT_KEY);
}

/** Three steps: a shell command, a file editor create, a shell command that removes and rewrites; then finish. */
async function runThreeSteps() {
  harness = await startHarness();
  harness.server.push(
    terminal('echo one > a.txt && mkdir -p sub && echo first > sub/b.txt'),
    {
      toolCalls: [
        {
          name: 'file_editor',
          arguments: { command: 'create', path: join(harness.workspace, 'c.txt'), file_text: 'created\n' },
        },
      ],
    },
    terminal('echo hello'),
    terminal('rm a.txt && echo second > sub/b.txt'),
    finish('Done.'),
  );
  const { conversation, events } = await harness.conversation({ workspaceCheckpoints: true });
  await conversation.sendMessage('Change some files');
  expect((await conversation.run()).status).toBe('finished');
  const [first, second, unchanged, third] = observations(events);
  return { conversation, events, first: first!, second: second!, unchanged: unchanged!, third: third! };
}

describe('workspace checkpoints', () => {
  it('records the files after each step and restores them on navigate, both ways', async () => {
    const { conversation, events, first, second, unchanged, third } = await runThreeSteps();
    expect(await filesOf(harness.workspace)).toEqual({ 'c.txt': 'created\n', 'sub/b.txt': 'second\n' });
    // The step that changed nothing (`echo hello`) and the finish step record no checkpoint.
    const recorded = checkpointRecords(events).map(
      (event) => (event as { value: { event_id: string } }).value.event_id,
    );
    expect(recorded).toEqual([expect.any(String), first.id, second.id, third.id]);
    expect(recorded).not.toContain(unchanged.id);

    await conversation.navigateTo(first.id);
    expect(await filesOf(harness.workspace)).toEqual({ 'a.txt': 'one\n', 'sub/b.txt': 'first\n' });
    await conversation.navigateTo(unchanged.id);
    expect(await filesOf(harness.workspace)).toEqual({
      'a.txt': 'one\n',
      'c.txt': 'created\n',
      'sub/b.txt': 'first\n',
    });
    await conversation.navigateTo(third.id);
    expect(await filesOf(harness.workspace)).toEqual({ 'c.txt': 'created\n', 'sub/b.txt': 'second\n' });
    // Before the first step: the workspace as the run found it (empty).
    await conversation.navigateTo(events.find((event) => event.kind === 'MessageEvent' && event.source === 'user')!.id);
    expect(await filesOf(harness.workspace)).toEqual({});
    await conversation.close();
  });

  it('forks with the files of the fork point in the fork workspace, and compares the branches', async () => {
    const { conversation, first } = await runThreeSteps();
    const forkWorkspace = join(harness.persistenceDir, 'fork-ws');
    const other = createOpenAILLM({ model: 'other-model', baseURL: harness.server.baseURL, apiKey: 'sk-test' });
    const fork = await conversation.fork({
      fromEventId: first.id,
      workspace: forkWorkspace,
      agent: harness.agent({ llm: other, systemPrompt: 'You answer as the counterfactual agent.' }),
    });
    expect(fork.workspace).toBe(forkWorkspace);
    expect(await filesOf(forkWorkspace)).toEqual({ 'a.txt': 'one\n', 'sub/b.txt': 'first\n' });
    // The original's files are untouched.
    expect(await filesOf(harness.workspace)).toEqual({ 'c.txt': 'created\n', 'sub/b.txt': 'second\n' });

    harness.server.push(terminal('echo fork > d.txt'), finish('Forked.'));
    await fork.sendMessage('Go on differently');
    expect((await fork.run()).status).toBe('finished');
    expect(harness.server.requests.at(-1)?.model).toBe('other-model');
    // The fork's agent has its own system prompt: it is what the fork's model sees, not the copied one.
    const messages = harness.server.requests.at(-1)?.messages as { role: string; content: unknown }[] | undefined;
    const system = messages?.[0];
    expect(system?.role).toBe('system');
    expect(JSON.stringify(system?.content)).toContain('You answer as the counterfactual agent.');
    expect(await filesOf(forkWorkspace)).toEqual({ 'a.txt': 'one\n', 'd.txt': 'fork\n', 'sub/b.txt': 'first\n' });

    const comparison = await compareConversations(conversation, fork);
    expect(comparison.common_event_id).toBe(first.id);
    expect(comparison.a.actions.map((action) => action.tool_name)).toEqual([
      'file_editor',
      'terminal',
      'terminal',
      'finish',
    ]);
    expect(comparison.b.actions.map((action) => action.tool_name)).toEqual(['terminal', 'finish']);
    expect(comparison.a.final_message).toBe('Done.');
    expect(comparison.b.final_message).toBe('Forked.');
    expect(comparison.a.files_changed).toEqual({ added: ['c.txt'], modified: ['sub/b.txt'], removed: ['a.txt'] });
    expect(comparison.b.files_changed).toEqual({ added: ['d.txt'], modified: [], removed: [] });
    expect(comparison.files_differing).toEqual(['a.txt', 'c.txt', 'd.txt', 'sub/b.txt']);
    expect(comparison.b.tokens).toBeGreaterThan(0);

    // A fork reopened elsewhere still finds its checkpoints (copied into its own directory).
    await fork.close();
    await rm(forkWorkspace, { recursive: true });
    const reopened = await Conversation.resume(fork.id, {
      agent: harness.agent(),
      workspace: forkWorkspace,
      persistenceDir: harness.persistenceDir,
      workspaceCheckpoints: true,
    });
    expect(await filesOf(forkWorkspace)).toEqual({ 'a.txt': 'one\n', 'd.txt': 'fork\n', 'sub/b.txt': 'first\n' });
    await reopened.close();
    await conversation.close();
  });

  it('rejects a fork from an unknown event with UnknownEventError', async () => {
    const { conversation } = await runThreeSteps();
    await expect(conversation.fork({ fromEventId: 'no-such-event' })).rejects.toBeInstanceOf(UnknownEventError);
    await conversation.close();
  });

  it('restores into an empty workspace on resume, but never over files that are there', async () => {
    const { conversation } = await runThreeSteps();
    await conversation.close();
    const options = {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
      workspaceCheckpoints: true,
    };
    await rm(harness.workspace, { recursive: true });
    const restored = await Conversation.resume(conversation.id, options);
    expect(await filesOf(harness.workspace)).toEqual({ 'c.txt': 'created\n', 'sub/b.txt': 'second\n' });
    expect(restored.checkpoints.warnings).toEqual([]);
    await restored.close();

    await writeFile(join(harness.workspace, 'c.txt'), 'my uncommitted work\n');
    const kept = await Conversation.resume(conversation.id, options);
    expect(await readFile(join(harness.workspace, 'c.txt'), 'utf8')).toBe('my uncommitted work\n');
    expect(kept.checkpoints.warnings).toEqual([expect.stringContaining('differs from checkpoint')]);
    await kept.close();
  });

  it('restores on resume into a missing workspace, but makes no directory above it (a deleted root stays deleted)', async () => {
    const { conversation, third } = await runThreeSteps();
    await conversation.close();
    const base = await mkdtemp(join(tmpdir(), 'x-agent-ws-base-'));
    const parent = join(base, 'gone');
    const workspace = join(parent, 'nested');
    const options = { agent: harness.agent(), persistenceDir: harness.persistenceDir, workspaceCheckpoints: true };
    // Files at HEAD, into a workspace elsewhere whose parent does not exist: nothing is made, a warning says why.
    const orphaned = await Conversation.resume(conversation.id, { ...options, workspace });
    expect(orphaned.checkpoints.warnings).toEqual([
      `Could not restore the workspace on resume: Invalid path '${workspace}': the directory ${parent} it lies in does not exist.`,
    ]);
    await expect(readdir(parent)).rejects.toThrow('ENOENT');
    // An explicit navigate still makes every directory the user asked for.
    await orphaned.navigateTo(third.id);
    expect(await filesOf(workspace)).toEqual({ 'c.txt': 'created\n', 'sub/b.txt': 'second\n' });
    await orphaned.close();
    await rm(base, { recursive: true });
  });

  it('names a damaged blob, touches nothing, and the conversation still loads and runs', async () => {
    const { conversation, first } = await runThreeSteps();
    const objects = join(conversation.location, '.x-checkpoints', 'objects');
    const firstManifest = await conversation.checkpoints.manifest(
      (await conversation.checkpoints.at(first.id))!.checkpoint_id,
    );
    const damaged = firstManifest.files.find((file) => file.path === 'a.txt')!.sha256;
    await writeFile(join(objects, damaged), 'tampered');
    const head = conversation.leafEventId;
    const atHead = await conversation.checkpoints.at(head!);
    const headFile = (await conversation.checkpoints.manifest(atHead!.checkpoint_id)).files[0]!;

    const error = await conversation.navigateTo(first.id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CheckpointDamagedError);
    expect((error as Error).message).toContain(damaged);
    expect(conversation.leafEventId).toBe(head);
    expect(await filesOf(harness.workspace)).toEqual({ 'c.txt': 'created\n', 'sub/b.txt': 'second\n' });
    await conversation.close();

    await rm(harness.workspace, { recursive: true });
    await mkdir(harness.workspace);
    await rm(join(objects, headFile.sha256));
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
      workspaceCheckpoints: true,
    });
    expect(resumed.checkpoints.warnings.join('\n')).toMatch(/damaged/);
    harness.server.push(terminal('echo again > e.txt'), finish('Again.'));
    await resumed.sendMessage('Once more');
    expect((await resumed.run()).status).toBe('finished');
    expect(await readFile(join(harness.workspace, 'e.txt'), 'utf8')).toBe('again\n');
    await resumed.close();
  });

  it('captures around executeTool: the files before it at the start, after it at its observation', async () => {
    harness = await startHarness();
    await writeFile(join(harness.workspace, 'before.txt'), 'there first\n');
    const { conversation, events } = await harness.conversation({ workspaceCheckpoints: true });
    await conversation.executeTool('terminal', { command: 'echo made > made.txt && rm before.txt' });
    const observation = observations(events)[0]!;
    await conversation.navigateTo(events[0]!.id);
    expect(await filesOf(harness.workspace)).toEqual({ 'before.txt': 'there first\n' });
    await conversation.navigateTo(observation.id);
    expect(await filesOf(harness.workspace)).toEqual({ 'made.txt': 'made\n' });
    await conversation.close();
  });

  it('goes on running when the checkpoint store cannot be written, with a warning', async () => {
    harness = await startHarness();
    harness.server.push(terminal('echo kept > kept.txt'), finish('ok'));
    const { conversation } = await harness.conversation({ workspaceCheckpoints: true });
    // A file where the store's directory goes: every write under it fails, as on a full or broken disk.
    await writeFile(join(conversation.location, '.x-checkpoints'), 'not a directory');
    await conversation.sendMessage('Write a file');
    expect((await conversation.run()).status).toBe('finished');
    expect(await readFile(join(harness.workspace, 'kept.txt'), 'utf8')).toBe('kept\n');
    expect(conversation.checkpoints.warnings.length).toBeGreaterThan(0);
    expect(conversation.checkpoints.warnings[0]).toMatch(/^No workspace checkpoint after .*\.x-checkpoints/);
    await conversation.close();
  });

  // A file Node cannot read whole (over 2 GiB; sparse, so it costs no disk): unreadable for root too.
  it('leaves out a file it cannot read, with a warning, and restores around it', async () => {
    harness = await startHarness();
    harness.server.push(terminal('truncate -s 3G huge.bin && echo ok > ok.txt'), finish('ok'));
    const { conversation } = await harness.conversation({ workspaceCheckpoints: true });
    await conversation.sendMessage('Make a huge file');
    await conversation.run();
    // One warning per checkpoint that left it out.
    expect(conversation.checkpoints.warnings.length).toBeGreaterThan(0);
    for (const warning of conversation.checkpoints.warnings) expect(warning).toContain('huge.bin was left out');
    await conversation.navigateTo(conversation.leafEventId!);
    expect((await readdir(harness.workspace)).sort()).toEqual(['huge.bin', 'ok.txt']);
    expect(await readFile(join(harness.workspace, 'ok.txt'), 'utf8')).toBe('ok\n');
    await conversation.close();
  });
});

describe('editEvent', () => {
  it('branches with an edited copy of a user message and continues from it', async () => {
    const { conversation, events, first } = await runThreeSteps();
    const message = events.find((event) => event.kind === 'MessageEvent' && event.source === 'user')!;
    const edited = await conversation.editEvent(message.id, 'Change other files');
    expect(edited.id).not.toBe(message.id);
    expect(edited.parent_id).toBe(message.parent_id);
    expect(conversation.leafEventId).toBe(edited.id);
    // The files as they were before the message: the workspace was empty.
    expect(await filesOf(harness.workspace)).toEqual({});
    expect(await conversation.log.getById(first.id)).toBeDefined();

    harness.server.push(terminal('echo edited > f.txt'), finish('Edited.'));
    expect((await conversation.run()).status).toBe('finished');
    expect(JSON.stringify(harness.server.requests.at(-2)?.messages)).toContain('Change other files');
    expect(JSON.stringify(harness.server.requests.at(-2)?.messages)).not.toContain('Change some files');
    expect(await filesOf(harness.workspace)).toEqual({ 'f.txt': 'edited\n' });
    await expect(conversation.editEvent('nope', 'x')).rejects.toBeInstanceOf(UnknownEventError);
    await expect(conversation.editEvent(first.id, 'text')).rejects.toThrow(/has no text to replace/);
    await expect(conversation.editEvent(message.id, { bogus: 1 })).rejects.toThrow(/has no field bogus/);
    await conversation.close();
  });
});
