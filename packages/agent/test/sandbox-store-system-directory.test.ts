// Every sandbox mounts the system directories (/usr, /etc…) read-only, whatever its policy. A conversation store
// kept under one of them (a server's `--data-dir ./data` in a container whose app lives in /usr/src/app, a package
// that keeps its state under /usr/local) is then readable by every sandboxed command: every conversation's events
// and the secrets in them. The store's guard must see those mounts as it sees the policy's readable paths. With real
// bubblewrap; the test makes a directory under /usr/local/share (the suite runs as root).
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { conversationDirName } from '../src/conversation/persistence-layout.js';
import { Agent, Conversation, createOpenAILLM, defaultTools, InvalidSandboxPolicyError } from '../src/index.js';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '../src/testing/index.js';
import { requireBubblewrap } from './support/sandbox-fixture.js';

const id = '5a7e0000-0000-4000-8000-00000005d1e0';
const SYSTEM_PARENT = '/usr/local/share';
const made: string[] = [];
const servers: ScriptedLLMServer[] = [];

beforeAll(async () => {
  await requireBubblewrap();
  // The suite runs as root (as CI does): a system directory is writable, so a store can be made under one.
  accessSync(SYSTEM_PARENT, constants.W_OK);
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const path of made.splice(0)) await rm(path, { recursive: true, force: true, maxRetries: 5 });
});

const terminal = (command: string): ScriptedReply => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
const finish: ScriptedReply = { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };

/** A run of one terminal command reading this conversation's base_state.json; the events as text, or the refusal. */
async function runUnder(parent: string): Promise<{ events: string } | { refused: unknown; dir: string }> {
  const root = await mkdtemp(join(parent, 'x-store-system-'));
  made.push(root);
  const persistenceDir = join(root, 'conversations');
  const dir = join(persistenceDir, conversationDirName(id));
  // `$((40 + 2))`: the command's text is in the events too; only its output holds the number.
  const server = await startScriptedLLMServer([
    terminal(`grep -q '"id"' ${dir}/base_state.json && echo STORE-READ-$((40 + 2))`),
    finish,
  ]);
  servers.push(server);
  const workspace = await mkdtemp(join(tmpdir(), 'x-store-system-workspace-'));
  made.push(workspace);
  const agent = new Agent({
    llm: createOpenAILLM({ model: 'scripted', baseURL: server.baseURL, apiKey: 'sk-test' }),
    tools: defaultTools(),
  });
  let conversation: Conversation;
  try {
    conversation = await Conversation.create({ id, agent, workspace, persistenceDir });
  } catch (refused) {
    return { refused, dir };
  }
  await conversation.sendMessage('go');
  await conversation.run();
  const events: string[] = [];
  for await (const event of conversation.events()) events.push(JSON.stringify(event));
  await conversation.close();
  return { events: events.join('\n') };
}

describe('a conversation store under a system directory every sandbox mounts', () => {
  it('is refused before anything is written, naming the system directory and the store', async () => {
    const outcome = await runUnder(SYSTEM_PARENT);
    expect('events' in outcome ? outcome.events : '').not.toContain('STORE-READ-42');
    if (!('refused' in outcome)) throw new Error('the conversation opened');
    expect(outcome.refused).toBeInstanceOf(InvalidSandboxPolicyError);
    expect((outcome.refused as Error).message).toContain('system directory /usr');
    expect((outcome.refused as Error).message).toContain('holds the conversation store');
    expect(existsSync(outcome.dir)).toBe(false);
  });

  it('runs where the store lies outside them (the control: the same command cannot read it)', async () => {
    const outcome = await runUnder(tmpdir());
    if (!('events' in outcome)) throw outcome.refused;
    expect(outcome.events).toContain('STORE-READ-');
    expect(outcome.events).not.toContain('STORE-READ-42');
  });
});
