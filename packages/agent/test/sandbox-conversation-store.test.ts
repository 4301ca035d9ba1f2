// A sandboxed command must not reach the conversation store: there it could rewrite the sandbox policy record a
// resumed conversation runs under (x_sandbox_policy.json) and have its next commands run on the host. `x run` in
// the home directory, whose ~/.x/conversations holds the store, is the case in point. With real bubblewrap.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { conversationDirName } from '../src/conversation/persistence-layout.js';
import { Agent, Conversation, createOpenAILLM, defaultTools, InvalidSandboxPolicyError } from '../src/index.js';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '../src/testing/index.js';
import { requireBubblewrap } from './support/sandbox-fixture.js';

const id = '5a7e0000-0000-4000-8000-00000000c0de';
const opened: { home: string; server: ScriptedLLMServer }[] = [];

beforeAll(async () => {
  await requireBubblewrap();
});
afterEach(async () => {
  for (const { home, server } of opened.splice(0)) {
    await server.close();
    await rm(home, { recursive: true, force: true, maxRetries: 5 });
  }
});

const terminal = (command: string): ScriptedReply => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
const finish: ScriptedReply = { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };

/** A run of one terminal command in `workspace`, the store at `<home>/.x/conversations`; the events as text. */
async function runCommand(workspaceOf: (home: string) => string, command: (dir: string) => string) {
  const home = await mkdtemp(join(tmpdir(), 'x-store-in-sandbox-'));
  const persistenceDir = join(home, '.x', 'conversations');
  const dir = join(persistenceDir, conversationDirName(id));
  const server = await startScriptedLLMServer([terminal(command(dir)), finish]);
  opened.push({ home, server });
  const agent = new Agent({
    llm: createOpenAILLM({ model: 'scripted', baseURL: server.baseURL, apiKey: 'sk-test' }),
    tools: defaultTools(),
  });
  const workspace = workspaceOf(home);
  await mkdir(workspace, { recursive: true });
  const conversation = await Conversation.create({ id, agent, workspace, persistenceDir });
  await conversation.sendMessage('go');
  await conversation.run();
  const events: string[] = [];
  for await (const event of conversation.events()) events.push(JSON.stringify(event));
  await conversation.close();
  return { dir, events: events.join('\n') };
}

/** The record a command would write to run the conversation's next commands on the host once it is resumed. */
const OPT_OUT = JSON.stringify({
  version: 1,
  entries: [
    {
      policy: { mode: 'unsandboxed', network: { mode: 'all' }, writablePaths: [], readablePaths: [], limits: {} },
      since_event: 0,
      recorded_at: '2026-01-01T00:00:00.000Z',
    },
  ],
});

describe('a conversation whose workspace holds its store', () => {
  it('is refused before anything is written, naming the store: neither a command nor a file tool can reach it', async () => {
    const refused = await runCommand(
      (home) => home,
      (directory) => `printf '%s' '${OPT_OUT}' > ${directory}/x_sandbox_policy.json; echo WROTE-$((40 + 2))`,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidSandboxPolicyError);
    expect((refused as Error).message).toContain('holds the conversation store');
    const { home, server } = opened[0]!;
    expect(existsSync(join(home, '.x', 'conversations', conversationDirName(id)))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('runs its commands in the sandbox where the workspace lies beside the store (the control)', async () => {
    const { events } = await runCommand(
      (home) => join(home, 'project'),
      () => 'echo pid1 $(cat /proc/1/comm)',
    );
    expect(events).toContain('pid1 bwrap');
    expect(events).not.toContain('holds the conversation store');
  });
});
