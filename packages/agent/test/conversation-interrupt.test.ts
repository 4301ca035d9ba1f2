import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import { hostPids, waitUntilGone } from '../src/testing/index.js';
import { type Harness, kindsOf, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

async function savedStatus(conversation: Conversation): Promise<unknown> {
  const dir = join(harness.persistenceDir, conversation.directory);
  return JSON.parse(await readFile(join(dir, 'base_state.json'), 'utf8')).execution_status;
}

/** Polls for a file the command writes (the condition: the command has started). */
async function fileText(path: string): Promise<string> {
  for (;;) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (text.trim() !== '') return text.trim();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

function lastKinds(events: readonly AnyEvent[], count: number): string[] {
  return kindsOf(events).slice(-count);
}

describe('interrupt', () => {
  it('aborts a model call in flight: the server sees the request closed; recorded as paused, resumable', async () => {
    harness = await startHarness([{ hang: true }]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('think for a long time');
    const running = conversation.run();
    await harness.server.waitForRequests(1);

    await conversation.interrupt();
    // The condition itself: the model's HTTP request was closed by the client, not answered.
    await harness.server.waitForClientClose(0);
    const result = await running;

    expect(result).toMatchObject({ status: 'paused', interrupted: true });
    expect(conversation.state.execution_status).toBe('paused');
    expect(lastKinds(events, 1)).toEqual(['InterruptEvent']);
    expect(events.find((event) => event.kind === 'InterruptEvent')).toMatchObject({ source: 'user' });
    expect(kindsOf(events)).not.toContain('ConversationErrorEvent');
    expect(await savedStatus(conversation)).toBe('paused');

    // Resumable: the next run continues with the same history.
    harness.server.push({ content: 'done' });
    expect((await conversation.run()).status).toBe('finished');
    expect(JSON.stringify(harness.server.requests[1]?.messages)).toContain('think for a long time');
  });

  it('treats an abort of run({ signal }) the same way', async () => {
    harness = await startHarness([{ hang: true }]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('go');
    const controller = new AbortController();
    const running = conversation.run({ signal: controller.signal });
    await harness.server.waitForRequests(1);
    controller.abort();

    await harness.server.waitForClientClose(0);
    expect(await running).toMatchObject({ status: 'paused', interrupted: true });
    expect(lastKinds(events, 1)).toEqual(['InterruptEvent']);
    expect(kindsOf(events)).not.toContain('ConversationErrorEvent');
    await conversation.close();

    // Reopened, the conversation is paused, not failed.
    const reopened = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
    });
    expect(reopened.state.execution_status).toBe('paused');
    await reopened.close();
  });

  it('kills a running terminal command; actions not started are answered with the reference text', async () => {
    harness = await startHarness([
      {
        toolCalls: [
          {
            name: 'terminal',
            // The pid inside the sandbox's PID namespace, and that namespace, to find the host's pid.
            arguments: { command: "sh -c 'readlink /proc/self/ns/pid > ns.txt; echo $$ > pid.txt; exec sleep 600'" },
          },
          { name: 'terminal', arguments: { command: 'echo second > second.txt' } },
        ],
      },
    ]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('sleep');
    const running = conversation.run();
    const inside = Number(await fileText(join(harness.workspace, 'pid.txt')));
    const namespace = await fileText(join(harness.workspace, 'ns.txt'));
    const [pid] = await hostPids(namespace, [inside]);
    expect(pid).toBeGreaterThan(0);

    await conversation.interrupt();
    expect(await running).toMatchObject({ status: 'paused', interrupted: true });
    expect(await waitUntilGone([pid as number])).toEqual([]);
    expect(await exists(join(harness.workspace, 'second.txt'))).toBe(false);

    expect(lastKinds(events, 3)).toEqual(['ObservationEvent', 'AgentErrorEvent', 'InterruptEvent']);
    const observation = events.find((event) => event.kind === 'ObservationEvent');
    expect(JSON.stringify(observation)).toContain('The command was interrupted');
    const orphan = events.find((event) => event.kind === 'AgentErrorEvent');
    expect(orphan).toMatchObject({
      error: 'Tool call interrupted before completion. The conversation was paused.',
      classification: { kind: 'agent_action', retryable: true, user_action: 'retry' },
    });
    expect(conversation.state.pending_actions).toEqual([]);

    // The next run sends both tool results (no tool call without its answer).
    harness.server.push({ content: 'stopped' });
    expect((await conversation.run()).status).toBe('finished');
    const messages = (harness.server.requests[1]?.messages ?? []) as { role: string }[];
    const toolMessages = messages.filter((message) => message.role === 'tool');
    expect(toolMessages).toHaveLength(2);
  });

  it('without a run in progress pauses, as the reference falls back to pause()', async () => {
    harness = await startHarness([]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('hello');
    await conversation.interrupt();
    expect(conversation.state.execution_status).toBe('paused');
    expect(lastKinds(events, 1)).toEqual(['PauseEvent']);
  });
});
