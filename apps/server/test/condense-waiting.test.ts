// `condense` on a conversation waiting for a decision: its step would execute the pending action with no decision
// (past `approvalDeciders`), so it is refused with a typed 409 and nothing runs.
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer, waitFor } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  if (server === undefined) return;
  await server.stop();
  await removeDir(server.dataDir);
  server = undefined;
});

describe('POST /condense on a conversation waiting for confirmation', () => {
  it('is 409 actions_await_decision naming the action; the action does not run, nothing is appended', async () => {
    const llm = await startScriptedLLMServer([]);
    server = await startTestServer({ llm });
    llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo condense-undecided-marker' } }] });
    const body = createRequest(llm, {
      confirmation_policy: { kind: 'AlwaysConfirm' },
      initial_message: { content: [{ type: 'text', text: 'do it' }], run: true },
    });
    (body.agent as Record<string, unknown>).condenser = {
      kind: 'LLMSummarizingCondenser',
      max_size: 80,
      keep_first: 1,
    };
    const created = await server.call('POST', '/api/conversations', body);
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    const managed = await server.built.manager.require(id);
    await waitFor(
      async () => (await managed.open()).state.execution_status === 'waiting_for_confirmation' && !managed.isRunning,
    );
    const [action] = await (await managed.open()).pendingActions();
    const length = managed.log.length;
    llm.push({ content: 'summary of the conversation' });

    const refused = await server.call('POST', `/api/conversations/${id}/condense`);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.json)).toContain('actions_await_decision');
    expect(JSON.stringify(refused.json)).toContain(action!.id);
    expect(managed.log.length).toBe(length);
    const events = await managed.log.range(0, managed.log.length);
    expect(events.some((event) => event.kind === 'ObservationEvent')).toBe(false);
    expect((await managed.open()).state.execution_status).toBe('waiting_for_confirmation');
  }, 120_000);
});
