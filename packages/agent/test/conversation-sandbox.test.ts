// Every process a conversation starts runs in its sandbox: the terminal's shell, command hooks and MCP stdio
// servers see bubblewrap as PID 1, not the host's environment, not the conversation's data directory. The policy is
// recorded beside base_state.json and read back; the explicit opt-out runs on the host and says so once.
import { readlinkSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent, ObservationEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  Agent,
  Conversation,
  createDelegateTool,
  createOfflineLLM,
  currentSandboxPolicy,
  defaultTools,
  listSubConversationIds,
  readSandboxPolicyRecord,
  SANDBOX_POLICY_FILE,
  SandboxUnavailableError,
} from '../src/index.js';
import { fixtureReadablePaths, stdioServer } from '../src/mcp/__fixtures__/servers.js';
import { type Harness, startHarness } from './support/harness.js';

const SECRET = 'x-host-secret-7f3a9c';
let harness: Harness;

beforeEach(() => {
  process.env.X_TEST_HOST_SECRET = SECRET;
});
afterEach(async () => {
  delete process.env.X_TEST_HOST_SECRET;
  vi.restoreAllMocks();
  await harness?.close();
});

function observationTexts(events: readonly AnyEvent[]): string[] {
  return events
    .filter((event): event is ObservationEvent => event.kind === 'ObservationEvent')
    .map((event) => event.observation.content.map((part) => ('text' in part ? part.text : '')).join(''));
}

const terminal = (command: string) => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
const finish = { toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] };

/** A command printing what a process sees of the host: PID 1, the host's variables, the data directory. */
function probeCommand(dataDir: string): string {
  return [
    `echo "pid1=$(tr '\\0' ' ' < /proc/1/cmdline)"`,
    `if grep -rqs ${SECRET} /proc/*/environ; then echo secret=visible; else echo secret=hidden; fi`,
    `if ls ${dataDir} >/dev/null 2>&1; then echo data=visible; else echo data=hidden; fi`,
  ].join('; ');
}

describe('a conversation runs its processes in its sandbox', () => {
  it('the terminal: bubblewrap is PID 1, the host secret and the data directory are out of reach', async () => {
    harness = await startHarness();
    harness.server.push(terminal(probeCommand(harness.persistenceDir)), finish);
    const { conversation, events } = await harness.conversation();
    expect(conversation.sandboxPolicy).toMatchObject({ mode: 'sandboxed', network: { mode: 'none' } });
    await conversation.sendMessage('Probe');
    await conversation.run();
    await conversation.close();
    const [probe] = observationTexts(events);
    expect(probe).toMatch(/pid1=\S*bwrap /);
    expect(probe).toContain('secret=hidden');
    expect(probe).toContain('data=hidden');
  });

  it('command hooks run in it too', async () => {
    harness = await startHarness([terminal('true'), finish]);
    const out = join(harness.workspace, 'hook-probe.txt');
    const { conversation } = await harness.conversation({
      hooks: { PreToolUse: [{ hooks: [{ command: `{ ${probeCommand(harness.persistenceDir)}; } > ${out}` }] }] },
    });
    await conversation.sendMessage('Probe');
    await conversation.run();
    await conversation.close();
    const probe = await readFile(out, 'utf8');
    expect(probe).toMatch(/pid1=\S*bwrap /);
    expect(probe).toContain('secret=hidden');
    expect(probe).toContain('data=hidden');
  });

  it('MCP stdio servers run in it too', async () => {
    harness = await startHarness();
    const secretFile = join(harness.persistenceDir, 'secret.txt');
    await writeFile(secretFile, SECRET);
    harness.server.push(
      { toolCalls: [{ name: 'read_path', arguments: { path: '/proc/1/cmdline' } }] },
      { toolCalls: [{ name: 'read_path', arguments: { path: secretFile } }] },
      { toolCalls: [{ name: 'read_path', arguments: { path: `/proc/${process.pid}/environ` } }] },
      finish,
    );
    const { conversation, events } = await harness.conversation({
      agent: harness.agent({ mcpConfig: { probe: stdioServer() } }),
    });
    await conversation.sendMessage('Probe');
    await conversation.run();
    await conversation.close();
    const [pid1, secret, environ] = observationTexts(events);
    expect(pid1).toContain('bwrap');
    expect(secret).toContain('ERROR ENOENT');
    expect(environ).not.toContain(SECRET);
  });
});

describe('sub-agents', () => {
  it("run under the parent's policy, in the parent's sandbox", async () => {
    harness = await startHarness();
    const childEvents: AnyEvent[] = [];
    const delegate = createDelegateTool({
      agentTypes: {
        default: {
          createAgent: () =>
            new Agent({
              llm: createOfflineLLM({
                script: [
                  { toolCalls: [{ name: 'terminal', arguments: { command: probeCommand(harness.persistenceDir) } }] },
                  { toolCalls: [{ name: 'finish', arguments: { message: 'probed' } }] },
                ],
              }),
              tools: defaultTools(),
            }),
        },
      },
      onSubConversation: ({ conversation: child }) => {
        child.subscribe((event) => void childEvents.push(event));
      },
    });
    harness.server.push(
      { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['child'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { child: 'probe' } } }] },
      finish,
    );
    const { conversation } = await harness.conversation({
      agent: harness.agent({ tools: [delegate] }),
      sandbox: { network: { mode: 'all' } },
    });
    await conversation.sendMessage('Delegate');
    await conversation.run();
    await conversation.close();
    const [childId] = await listSubConversationIds(conversation.store, conversation.directory);
    const childDir = `${conversation.directory}/subagents/${(childId as string).replace(/-/g, '')}`;
    const record = await readSandboxPolicyRecord(conversation.store, childDir);
    expect(record?.entries.map((entry) => entry.policy)).toEqual([conversation.sandboxPolicy]);
    const [probe] = observationTexts(childEvents);
    expect(probe).toMatch(/pid1=\S*bwrap /);
    expect(probe).toContain('secret=hidden');
    expect(probe).toContain('data=hidden');
  });
});

describe('the sandbox policy of a conversation', () => {
  it('is recorded beside base_state.json and read back on resume; a new policy is added to the record', async () => {
    harness = await startHarness();
    const policy = { network: { mode: 'all' as const }, readablePaths: fixtureReadablePaths.slice(0, 1) };
    const { conversation } = await harness.conversation({ sandbox: policy });
    await conversation.close();
    const dir = conversation.directory;
    const store = conversation.store;
    expect(await store.exists(`${dir}/${SANDBOX_POLICY_FILE}`)).toBe(true);
    const record = await readSandboxPolicyRecord(store, dir);
    expect(record?.entries).toHaveLength(1);
    expect(record?.entries[0]).toMatchObject({ since_event: 0, policy: { mode: 'sandboxed', ...policy } });
    // The reference's files are untouched: base_state.json does not mention it.
    expect(await store.read(`${dir}/base_state.json`)).not.toContain('readablePaths');

    const resumed = await Conversation.resume(conversation.id, { agent: harness.agent(), store });
    expect(resumed.sandboxPolicy).toEqual(currentSandboxPolicy(record));
    await resumed.close();

    const narrowed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      store,
      workspace: harness.workspace,
      sandbox: {},
    });
    await narrowed.sendMessage('hello');
    harness.server.push(finish);
    await narrowed.run();
    await narrowed.close();
    const after = await readSandboxPolicyRecord(store, dir);
    expect(after?.entries.map((entry) => entry.policy.network.mode)).toEqual(['all', 'none']);
    expect(after?.entries[1]?.since_event).toBeGreaterThan(0);
  });

  it('is probed where a process first starts: a host without one fails that run with SandboxUnavailableError', async () => {
    harness = await startHarness();
    const store = harness.memoryStore();
    let probes = 0;
    const { conversation, events } = await harness.conversation({
      store,
      // The probe's answer on a host without bubblewrap.
      openSandbox: async () => {
        probes += 1;
        throw new SandboxUnavailableError('`bwrap` (bubblewrap) is not installed');
      },
    });
    // Creating the conversation and taking a message start no process: nothing is probed yet.
    await conversation.sendMessage('List the files');
    expect(probes).toBe(0);
    harness.server.push(terminal('ls'), finish);
    const run = conversation.run();
    await expect(run).rejects.toThrow(SandboxUnavailableError);
    await expect(run).rejects.toThrow(/mode: 'unsandboxed'/);
    expect(probes).toBe(1);
    // Loud in the log too: the error status and a ConversationErrorEvent naming it; the model was not asked again.
    expect(conversation.state.execution_status).toBe('error');
    expect(
      events.some((event) => event.kind === 'ConversationErrorEvent' && event.code === 'SandboxUnavailableError'),
    ).toBe(true);
    expect(harness.server.requests).toHaveLength(1);
    await conversation.close();
  });

  it("`mode: 'unsandboxed'` runs on the host and warns once, loudly", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    harness = await startHarness([terminal('readlink /proc/self/ns/pid'), terminal('true'), finish]);
    const { conversation, events } = await harness.conversation({ sandbox: { mode: 'unsandboxed' } });
    await conversation.sendMessage('Where am I?');
    await conversation.run();
    const second = await harness.conversation({ sandbox: { mode: 'unsandboxed' } });
    await conversation.close();
    await second.conversation.close();
    const [namespace] = observationTexts(events);
    expect(namespace?.trim().split('\n')[0]).toBe(readlinkSync('/proc/self/ns/pid'));
    const warnings = warn.mock.calls.map((call) => String(call[0]));
    expect(warnings.filter((message) => message.startsWith('running tools WITHOUT a sandbox: '))).toHaveLength(1);
    const record = await readSandboxPolicyRecord(conversation.store, conversation.directory);
    expect(record?.entries[0]?.policy.mode).toBe('unsandboxed');
  });
});
