import { createEvent } from '@x/events';
import { createMemoryFileStore, EventLog, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import {
  managersStoppedAfterEach,
  recordingLogger,
  offlineRequest as request,
} from '../../test/support/in-process-manager.js';
import { hyphenate } from '../internal/conversation-ids.js';
import { readConversationMeta, writeConversationMeta } from './conversation-meta.js';
import { resumeInterruptedRuns } from './resume-on-start.js';

// Two things a ManagedConversation learns from the conversation it opens, in process (no HTTP, a memory store):
// whether the run a restart cut off is to be resumed (`interruptedActions`), and the sub-agents' conversations a
// `delegate` call made while it is open (ConversationInfo's `sub_conversation_ids`).

const startManager = managersStoppedAfterEach();

const ID = '0123456789abcdef0123456789abcdef';

/** Waits for `check` (the store's writes and the listing of sub-conversations are asynchronous). */
async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not ${what} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A conversation on `store` left as a process that died in the middle of a terminal command leaves it. */
async function crashedMidAction(store: FileStore): Promise<string> {
  const first = await startManager({ store });
  await first.manager.create(request({ conversation_id: ID }));
  await first.manager.close(5_000);
  const log = await EventLog.open(store, { dir: `${ID}/events` });
  await log.append(createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'running' }));
  const action = createEvent('ActionEvent', {
    thought: [],
    action: { kind: 'TerminalAction', command: 'echo ran' },
    tool_name: 'terminal',
    tool_call_id: 'call_crash',
    tool_call: { id: 'call_crash', name: 'terminal', arguments: '{"command":"echo ran"}', origin: 'completion' },
    llm_response_id: 'resp_crash',
  });
  await log.append(action);
  const meta = await readConversationMeta(store, ID);
  await writeConversationMeta(store, { ...meta!, execution_status: 'running' });
  return action.id;
}

describe('a run a restart cut off (interruptedActions)', () => {
  it("'report': opening marks it to resume, it is kept open, and the start-up resumes it once", async () => {
    const store = createMemoryFileStore();
    const actionId = await crashedMidAction(store);
    const { manager } = await startManager({ store, interruptedActions: 'report' });
    const managed = await manager.require(hyphenate(ID));
    await managed.open();
    expect(managed.resumeAfterRestart).toBe(true);
    // Releasing it now would lose the run to resume.
    expect(managed.isReleasable).toBe(false);
    const errors = (await managed.log.range(0)).filter((event) => event.kind === 'AgentErrorEvent');
    expect(errors).toMatchObject([{ parent_id: actionId, tool_call_id: 'call_crash' }]);

    const { logger, lines } = recordingLogger();
    expect(await resumeInterruptedRuns(manager, logger)).toBe(1);
    expect(lines).toEqual(['warn: resuming a run the last process did not end']);
    expect(managed.resumeAfterRestart).toBe(false);
    await waitFor(async () => !managed.isRunning && managed.meta.execution_status === 'finished', 'finished');
  });

  it("'confirm': the cut-off action is left to a human, so nothing is resumed", async () => {
    const store = createMemoryFileStore();
    await crashedMidAction(store);
    const { manager } = await startManager({ store, interruptedActions: 'confirm' });
    const managed = await manager.require(hyphenate(ID));
    await managed.open();
    expect(managed.resumeAfterRestart).toBe(false);
    expect(managed.fullState()).toMatchObject({ execution_status: 'waiting_for_confirmation' });
    const { logger } = recordingLogger();
    expect(await resumeInterruptedRuns(manager, logger)).toBe(0);
    expect(managed.isRunning).toBe(false);
  });
});

describe('sub-agents of an open conversation', () => {
  it('lists the conversation a delegate call made, without reopening', async () => {
    const { manager } = await startManager({ allowScriptedAgents: true });
    // The turn after the call is a plain reply (no observation follows the delegate call's own): only that
    // observation can have the list read again.
    const { conversation } = await manager.create(
      request({
        conversation_id: ID,
        agent: {
          llm: { model: 'offline' },
          tools: [{ name: 'DelegateTool' }],
          x_offline_script: [
            { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['scout'] } }] },
            { content: 'A scout is ready.' },
          ],
        },
      }),
    );
    expect(conversation.fullState().sub_conversation_ids).toEqual([]);
    await conversation.sendMessage(
      { role: 'user', content: [{ cache_prompt: false, type: 'text', text: 'Send a scout' }], thinking_blocks: [] },
      { run: true },
    );
    expect(await conversation.waitForRun(60_000)).toBe(true);
    await waitFor(
      () => (conversation.fullState().sub_conversation_ids as unknown[]).length === 1,
      'listing the sub-conversation',
    );
    expect(conversation.isOpen).toBe(true);
  });
});
