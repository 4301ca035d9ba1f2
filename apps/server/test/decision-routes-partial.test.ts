// Deciding pending actions one at a time: no run starts while an action is left undecided, nor with `run: false`;
// each decision publishes the conversation's state to its watchers; an empty list is refused; and the listing
// reads only the decision records (not the folder of edited actions beside them), by decision time.
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer, waitFor } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  if (server === undefined) return;
  await server.stop();
  await removeDir(server.dataDir);
  server = undefined;
});

const terminal = (command: string) => ({ name: 'terminal', arguments: { command } });

describe('POST /api/conversations/{id}/decisions, one action at a time', () => {
  it('runs nothing until every pending action is decided, nor with run: false; lists records by time', async () => {
    server = await startTestServer({ config: { allowScriptedAgents: true } });
    const { status, json } = await server.call('POST', '/api/conversations', {
      agent: {
        llm: { model: 'offline' },
        tools: [{ name: 'TerminalTool' }],
        x_offline_script: [{ toolCalls: [terminal('echo one'), terminal('echo two')] }],
      },
      confirmation_policy: { kind: 'AlwaysConfirm' },
      initial_message: { content: [{ type: 'text', text: 'do both' }], run: true },
    });
    expect(status, JSON.stringify(json)).toBe(201);
    const id = (json as { id: string }).id;
    const managed = await server.built.manager.require(id);
    const statusOf = async () =>
      ((await server!.call('GET', `/api/conversations/${id}`)).json as { execution_status: string }).execution_status;
    await waitFor(async () => (await statusOf()) === 'waiting_for_confirmation' && !managed.isRunning);
    const pending = await (await managed.open()).pendingActions();
    expect(pending).toHaveLength(2);
    // Decided first: the one whose record's file name sorts last, so the listing must sort by time.
    const [first, second] = pending.map((action) => action.id).sort((a, b) => b.localeCompare(a));
    const path = `/api/conversations/${id}/decisions`;
    const published: AnyEvent[] = [];
    const stop = managed.onPublished((event) => published.push(event));

    expect((await server.call('POST', path, { decisions: [] })).status).toBe(422);

    // A denial, with the other action still undecided: recorded, and no run.
    const fullStates = () =>
      published.filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state').length;
    const deny = { action_id: first, decision: { kind: 'deny', reason: 'not this one' } };
    const denied = await server.call('POST', path, { decisions: [deny] });
    expect(denied.status, JSON.stringify(denied.json)).toBe(200);
    expect(managed.isRunning).toBe(false);
    expect(await statusOf()).toBe('waiting_for_confirmation');
    expect(fullStates()).toBeGreaterThan(0);

    // The last one decided (edited arguments: a folder of edits beside the records), but `run: false`: no run.
    const before = fullStates();
    const edit = { action_id: second, decision: { kind: 'approve', arguments: { command: 'echo edited' } } };
    const edited = await server.call('POST', path, { decisions: [edit], run: false });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(managed.isRunning).toBe(false);
    expect(await statusOf()).toBe('waiting_for_confirmation');
    // Its watchers (event sockets) are told the state, though nothing ran.
    expect(fullStates()).toBe(before + 1);
    stop();

    const listed = await server.call('GET', path);
    expect(listed.status, JSON.stringify(listed.json)).toBe(200);
    const { decisions } = listed.json as { decisions: Record<string, unknown>[] };
    // The denial first (decided first); then, decided at one time, the edit and the edited action's own approval.
    expect(decisions).toHaveLength(3);
    expect(decisions[0]).toMatchObject({ action_id: first, decision: { kind: 'deny', reason: 'not this one' } });
    expect(decisions.slice(1)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action_id: second,
          decision: { kind: 'approve', arguments: { command: 'echo edited' } },
        }),
        expect.objectContaining({ edited_from: second, decision: { kind: 'approve' } }),
      ]),
    );
  }, 120_000);
});
