import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventToJson } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, Conversation, createOfflineLLM, defaultTools } from '../src/index.js';
import { createStrictReplay, ReplayDivergenceError } from '../src/testing/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const PROMPT = 'You are a careful assistant.\nWork in small steps.\nAlways show your result.';
const TASK = 'Write notes.txt and show it';

/** Each run gets a workspace of its own (a replay must not find the recorded run's files). */
const workspaces: string[] = [];
async function freshWorkspace(): Promise<string> {
  const dir = await mkdtemp(join(harness.persistenceDir, 'ws-'));
  workspaces.push(dir);
  return dir;
}
/** The workspace paths differ between runs: blank them out on both sides. */
const normalize = (text: string) => text.replaceAll(/\/[^\s"']*\/ws-[A-Za-z0-9]+/g, '<workspace>');

/**
 * A `python` on the terminal's PATH, so that its observations carry the interpreter line. The host's (a pyenv
 * shim under the home directory, say) may not be visible in the sandbox: this one is, in the workspace.
 */
async function pythonDirectory(workspace: string): Promise<string> {
  const directory = join(workspace, 'bin');
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'python'), '#!/bin/sh\nexit 0\n');
  await chmod(join(directory, 'python'), 0o755);
  return directory;
}

/** Runs `llm` with a fresh agent in a fresh workspace and returns the stored events as JSON. */
async function runWith(llm: Agent['llm'], systemPrompt: string, persistenceDir: string) {
  const workspace = await freshWorkspace();
  const python = await pythonDirectory(workspace);
  const conversation = await Conversation.create({
    agent: new Agent({
      llm,
      tools: defaultTools({ toolEnvironment: { set: { PATH: `${python}:/usr/bin:/bin` } } }),
      systemPrompt,
    }),
    workspace,
    persistenceDir,
    durability: 'none',
  });
  await conversation.sendMessage(TASK);
  const result = await conversation.run().catch((error: unknown) => error);
  const events = (await conversation.log.range(0)).map((event) => eventToJson(event));
  return { result, events };
}

async function recordConversation() {
  harness = await startHarness();
  const llm = createOfflineLLM({
    script: [
      {
        content: 'Creating the file.',
        toolCalls: [{ name: 'file_editor', arguments: { command: 'create', path: 'notes.txt', file_text: 'alpha\n' } }],
      },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'cat notes.txt' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Wrote and showed notes.txt' } }] },
    ],
  });
  const recorded = await runWith(llm, PROMPT, `${harness.persistenceDir}/recorded`);
  expect(recorded.result).toMatchObject({ status: 'finished' });
  return recorded.events;
}

describe('strict replay (createStrictReplay from @x/agent/testing)', () => {
  it('passes when the agent makes the recorded requests', async () => {
    const events = await recordConversation();
    const replay = createStrictReplay(events, { normalize });
    expect(replay.recorded).toBe(3);
    const { result } = await runWith(replay.llm, PROMPT, `${harness.persistenceDir}/replay-same`);
    expect(result).toMatchObject({ status: 'finished' });
    expect(replay.divergence).toBeUndefined();
    expect(replay.matched).toBe(3);
    expect(() => replay.assertMatched()).not.toThrow();
  });

  it('fails at the first request with a readable diff after one change to the system prompt', async () => {
    const events = await recordConversation();
    const replay = createStrictReplay(events, { normalize });
    const changed = PROMPT.replace('Work in small steps.', 'Work in big steps.');
    await runWith(replay.llm, changed, `${harness.persistenceDir}/replay-changed`);
    expect(replay.matched).toBe(0);
    expect(replay.divergence).toMatchObject({ requestIndex: 0, path: 'messages[0].content[0].text' });
    let thrown: unknown;
    try {
      replay.assertMatched();
    } catch (error) {
      thrown = error;
    }
    expect(ReplayDivergenceError.isInstance(thrown)).toBe(true);
    const { diff } = (thrown as ReplayDivergenceError).divergence;
    expect(diff).toContain('request 0');
    expect(diff).toContain('at messages[0].content[0].text');
    expect(diff).toContain('    You are a careful assistant.');
    expect(diff).toContain('  - Work in small steps.');
    expect(diff).toContain('  + Work in big steps.');
  });

  it('fails where the tool set changed', async () => {
    const events = await recordConversation();
    const replay = createStrictReplay(events, { normalize });
    const conversation = await Conversation.create({
      agent: new Agent({
        llm: replay.llm,
        tools: defaultTools().filter((tool) => tool.name !== 'terminal'),
        systemPrompt: PROMPT,
      }),
      workspace: await freshWorkspace(),
      persistenceDir: `${harness.persistenceDir}/replay-tools`,
      durability: 'none',
    });
    await conversation.sendMessage(TASK);
    await conversation.run().catch(() => undefined);
    expect(replay.divergence?.path).toMatch(/^tools\[\d+\]/);
    expect(replay.divergence?.diff).toContain('terminal');
  });

  it("ignores the terminal's host-dependent Python interpreter line (DEFAULT_VOLATILE_PATTERNS), unless told not to", async () => {
    const events = await recordConversation();
    // As if recorded on another machine: its python was elsewhere on PATH.
    const elsewhere = events.map((event) => {
      const observation = (event as { observation?: { kind?: string; metadata?: Record<string, unknown> } })
        .observation;
      if (observation?.kind !== 'TerminalObservation') return event;
      return {
        ...event,
        observation: {
          ...observation,
          metadata: { ...observation.metadata, py_interpreter_path: '/opt/elsewhere/bin/python' },
        },
      };
    });
    expect(JSON.stringify(elsewhere)).toContain('/opt/elsewhere/bin/python');

    const lenient = createStrictReplay(elsewhere, { normalize });
    await runWith(lenient.llm, PROMPT, `${harness.persistenceDir}/replay-volatile`);
    expect(() => lenient.assertMatched()).not.toThrow();

    const strict = createStrictReplay(elsewhere, { normalize, volatilePatterns: [] });
    await runWith(strict.llm, PROMPT, `${harness.persistenceDir}/replay-strict`);
    expect(strict.divergence?.requestIndex).toBe(2);
    expect(strict.divergence?.diff).toContain('  - [Python interpreter: /opt/elsewhere/bin/python]');
  });
});
