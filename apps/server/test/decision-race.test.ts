import { createHash } from 'node:crypto';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { finishReply, removeDir, startTestServer, type TestServer, waitFor } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  if (server === undefined) return;
  await server.stop();
  await removeDir(server.dataDir);
  server = undefined;
});

const approverKey = 'key-of-the-approver';
const denierKey = 'key-of-the-denier';
const principal = (key: string) => `api-key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

describe('two clients deciding the same pending action at once', () => {
  it.each(['at once', 'one after the other (the denial arrives while the run the approval started executes)'])(
    '%s: one decision wins and is applied once; the other is a 409 decision_conflict',
    async (timing) => {
      const llm = await startScriptedLLMServer([
        { toolCalls: [{ name: 'terminal', arguments: { command: 'echo ran-once' } }] },
        finishReply('done'),
        finishReply('done again'),
      ]);
      server = await startTestServer({
        llm,
        config: { apiKeys: [approverKey, denierKey], approvalDeciders: [principal(approverKey), principal(denierKey)] },
      });
      const as = (key: string) => ({ 'x-session-api-key': key });
      const created = await server.call(
        'POST',
        '/api/conversations',
        {
          agent: {
            llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test' },
            tools: [{ name: 'TerminalTool' }],
          },
          confirmation_policy: { kind: 'AlwaysConfirm' },
          initial_message: { content: [{ type: 'text', text: 'do it' }], run: true },
        },
        as(approverKey),
      );
      expect(created.status).toBe(201);
      const id = (created.json as { id: string }).id;
      const managed = await server.built.manager.require(id);
      const status = async () =>
        (
          (await server!.call('GET', `/api/conversations/${id}`, undefined, as(approverKey))).json as {
            execution_status: string;
          }
        ).execution_status;
      await waitFor(async () => (await status()) === 'waiting_for_confirmation' && !managed.isRunning);
      const conversation = await managed.open();
      const [action] = await conversation.pendingActions();
      const path = `/api/conversations/${id}/decisions`;
      const approve = { decisions: [{ action_id: action!.id, decision: { kind: 'approve' } }] };
      const deny = { decisions: [{ action_id: action!.id, decision: { kind: 'deny', reason: 'no' } }] };

      const approving = () => server!.call('POST', path, approve, as(approverKey));
      const denying = () => server!.call('POST', path, deny, as(denierKey));
      const [approved, denied] =
        timing === 'at once' ? await Promise.all([approving(), denying()]) : [await approving(), await denying()];
      const statuses = [approved.status, denied.status].sort();
      expect(statuses, JSON.stringify([approved.json, denied.json])).toEqual([200, 409]);
      const loser = approved.status === 409 ? approved : denied;
      expect(loser.json).toMatchObject({ code: 'decision_conflict' });

      await waitFor(async () => (await status()) === 'finished' && !managed.isRunning);
      const events = await conversation.activeBranch();
      const answers = events.filter(
        (event) =>
          (event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation') &&
          (event as { action_id?: string }).action_id === action!.id,
      );
      expect(answers).toHaveLength(1);
      expect(answers[0]!.kind).toBe(approved.status === 200 ? 'ObservationEvent' : 'UserRejectObservation');
    },
    120_000,
  );
});
