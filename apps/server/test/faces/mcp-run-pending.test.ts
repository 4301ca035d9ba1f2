// `run` on a conversation waiting for confirmation, judged by `@modelcontextprotocol/sdk`'s Client over streamable
// HTTP. A run executes the actions that wait, so `run` with a new message ("no, don't") would approve what the client
// never answered: it is refused as a tool execution error the model reads (`isError`, `structuredContent.reason:
// pending_actions`, naming the actions), nothing recorded, and `confirm_actions` decides them.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer();
  client = new Client({ name: 'x-mcp-run-pending', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await removeDir(server.dataDir);
});

interface View {
  status: string;
  final_answer: string;
  event_count: number;
  pending_actions: { id: string; tool_name: string }[];
}

function viewOf(result: unknown): View {
  return (result as { structuredContent: View }).structuredContent;
}

/** A conversation whose model asked to run a command, waiting for its confirmation. */
async function waiting(): Promise<{ id: string; view: View }> {
  server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo confirmed-step' } }] });
  const started = viewOf(
    await client.callTool({
      name: 'start_conversation',
      arguments: { conversation: createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } }) },
    }),
  );
  const id = (started as unknown as { conversation_id: string }).conversation_id;
  const view = viewOf(await client.callTool({ name: 'run', arguments: { conversation_id: id, message: 'Echo' } }));
  expect(view.status).toBe('waiting_for_confirmation');
  expect(view.pending_actions).toHaveLength(1);
  return { id, view };
}

describe('MCP run on a conversation waiting for confirmation', () => {
  it.each([
    ['with a message', { message: 'No, do not run that' }],
    ['without one', {}],
  ])(
    'is refused %s: a tool error pending_actions naming the action, nothing recorded, nothing run',
    async (_what, extra) => {
      const { id, view } = await waiting();
      const [action] = view.pending_actions;
      const refused = await client.callTool({ name: 'run', arguments: { conversation_id: id, ...extra } });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toEqual({
        reason: 'pending_actions',
        conversation_id: id,
        pending_action_ids: [action?.id],
      });
      const text = (refused.content as { text: string }[])[0]?.text;
      expect(text).toContain(`waits for confirmation of 1 action(s): '${action?.id}' (terminal)`);
      expect(text).toContain('confirm_actions');
      const after = viewOf(await client.callTool({ name: 'get_conversation', arguments: { conversation_id: id } }));
      expect(after).toEqual(view);
    },
  );

  it('follows a run that is running its action (not waiting for it), with the message joining it', async () => {
    server.llm.push({ toolCalls: [{ id: 'call_sleep', name: 'terminal', arguments: { command: 'sleep 600' } }] });
    const started = viewOf(
      await client.callTool({ name: 'start_conversation', arguments: { conversation: createRequest(server.llm) } }),
    );
    const id = (started as unknown as { conversation_id: string }).conversation_id;
    const first = client.callTool({ name: 'run', arguments: { conversation_id: id, message: 'Sleep' } });
    const managed = await server.built.manager.require(id);
    await expect
      .poll(async () => managed.isRunning && (await (await managed.open()).pendingActions()).length === 1)
      .toBe(true);
    const joined = client.callTool({ name: 'run', arguments: { conversation_id: id, message: 'Then stop' } });
    await expect
      .poll(async () => JSON.stringify(await managed.log.range(0, managed.log.length)).includes('Then stop'))
      .toBe(true);
    await client.callTool({ name: 'interrupt', arguments: { conversation_id: id } });
    const [firstView, joinedView] = (await Promise.all([first, joined])).map(viewOf);
    expect(firstView?.status).toBe('paused');
    expect(joinedView?.status).toBe('paused');
  });

  it('goes on once confirm_actions approves, and run works again afterwards', async () => {
    const { id } = await waiting();
    server.llm.push(finishReply('echoed'));
    const done = viewOf(
      await client.callTool({ name: 'confirm_actions', arguments: { conversation_id: id, approve: true } }),
    );
    expect(done).toMatchObject({ status: 'finished', final_answer: 'echoed', pending_actions: [] });
    server.llm.push(finishReply('again'));
    const next = viewOf(await client.callTool({ name: 'run', arguments: { conversation_id: id, message: 'More' } }));
    expect(next).toMatchObject({ status: 'finished', final_answer: 'again' });
  });

  it('approves with a reason as without one, and says the reason was not used (approving records none)', async () => {
    const { id } = await waiting();
    server.llm.push(finishReply('ran it'));
    const answer = await client.callTool({
      name: 'confirm_actions',
      arguments: { conversation_id: id, approve: true, reason: 'looks safe to me' },
    });
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({
      status: 'finished',
      final_answer: 'ran it',
      note: 'reason was not used: approving records no reason (the agent is told a reason only when actions are rejected)',
    });
    const text = JSON.parse((answer.content as { text: string }[])[0]?.text ?? '{}') as { note?: string };
    expect(text.note).toBe((answer.structuredContent as { note: string }).note);
    const managed = await server.built.manager.require(id);
    const events = JSON.stringify(await managed.log.range(0, managed.log.length));
    expect(events).not.toContain('looks safe to me');
    expect(events).not.toContain('UserRejectObservation');

    const { id: plain } = await waiting();
    server.llm.push(finishReply('ran it too'));
    const approved = await client.callTool({
      name: 'confirm_actions',
      arguments: { conversation_id: plain, approve: true },
    });
    expect(approved.structuredContent).not.toHaveProperty('note');
  });
});
