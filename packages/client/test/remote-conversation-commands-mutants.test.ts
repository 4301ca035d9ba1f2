import type { XServe } from '@x/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteConversation } from '../src/index.js';
import { api, eventually, finish, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const options = { apiKey: KEY, pollIntervalMs: 50, runTimeoutMs: 90_000 };
const info = async (id: string) => (await api(server, 'GET', `/api/conversations/${id}`)) as Record<string, unknown>;

describe('RemoteConversation commands against x serve', TEST_TIMEOUT, () => {
  it('forks with the options given, inheriting the key but not the listener', async () => {
    const heard: string[] = [];
    const conversation = await RemoteConversation.create(server.url, {
      ...options,
      agent: scriptedAgent([finish('one')]),
      onEvent: (event) => heard.push(event.id),
    });
    await conversation.sendMessage('hello');
    await conversation.run();
    const forkId = crypto.randomUUID();
    const fork = await conversation.fork({ id: forkId, title: 'A fork', tags: { kind: 'copy' }, resetMetrics: false });
    try {
      expect(fork.id).toBe(forkId);
      expect(fork.serverUrl).toBe(conversation.serverUrl);
      const forked = await info(forkId);
      expect(forked.title).toBe('A fork');
      expect(forked.tags).toEqual({ kind: 'copy' });
      // resetMetrics: false keeps the usage the original run recorded.
      const original = await info(conversation.id);
      expect(Object.keys((original.stats as { usage_to_metrics: object }).usage_to_metrics)).not.toEqual([]);
      expect(forked.stats).toEqual(original.stats);
      expect(fork.state.id).toBe(forkId);
      const heardBefore = heard.length;
      await fork.sendMessage('only on the fork');
      await eventually(() => fork.nextIndex).toBe((forked.event_count as number) + 1);
      expect(heard.length).toBe(heardBefore);
    } finally {
      await fork.close();
    }
    const events = [];
    for await (const event of conversation.events()) events.push(event);
    const branchPoint = events[1]!.id;
    const partial = await conversation.fork({ fromEventId: branchPoint });
    try {
      expect(partial.leafEventId).toBe(branchPoint);
      expect((await info(partial.id)).event_count).toBe(2);
      expect((await info(partial.id)).stats).toEqual({ usage_to_metrics: {} });
    } finally {
      await partial.close();
      await conversation.close();
    }
  });

  it('moves HEAD and reports it', async () => {
    const conversation = await RemoteConversation.create(server.url, { ...options, agent: scriptedAgent([]) });
    try {
      await conversation.sendMessage('one');
      await conversation.sendMessage('two');
      const events = [];
      for await (const event of conversation.events()) events.push(event);
      const state = await conversation.navigateTo(events[1]!.id);
      expect(state.leaf_event_id).toBe(events[1]!.id);
      expect(conversation.leafEventId).toBe(events[1]!.id);
      expect(conversation.state.id).toBe(conversation.id);
      await conversation.navigateTo(null);
      expect(conversation.leafEventId).toBeUndefined();
    } finally {
      await conversation.close();
    }
  });

  it('sets the security analyzer, the confirmation policy and secrets', async () => {
    const conversation = await RemoteConversation.create(server.url, { ...options, agent: scriptedAgent([]) });
    try {
      await conversation.setSecurityAnalyzer('llm');
      expect((await info(conversation.id)).security_analyzer).toEqual({ kind: 'LLMSecurityAnalyzer' });
      await conversation.setSecurityAnalyzer('none');
      expect((await info(conversation.id)).security_analyzer).toBeNull();
      await conversation.setConfirmationPolicy({ kind: 'AlwaysConfirm' });
      expect((await conversation.refresh()).confirmation_policy).toEqual({ kind: 'AlwaysConfirm' });
      await conversation.updateSecrets({ TOKEN: 'abc', OTHER: { value: 'def' } });
      const sources = ((await info(conversation.id)).secret_registry as { secret_sources: Record<string, unknown> })
        .secret_sources;
      expect(Object.keys(sources).sort()).toEqual(['OTHER', 'TOKEN']);
    } finally {
      await conversation.close();
    }
  });

  it('waits for confirmation, and runs or rejects the pending actions', async () => {
    const echo = { toolCalls: [{ name: 'terminal', arguments: { command: 'echo hi' } }] };
    const conversation = await RemoteConversation.create(server.url, {
      ...options,
      agent: scriptedAgent([echo, echo, finish('done')], ['terminal']),
      confirmationPolicy: { kind: 'AlwaysConfirm' },
    });
    try {
      await conversation.sendMessage('go');
      expect(await conversation.run()).toEqual({ status: 'waiting_for_confirmation' });
      expect((await conversation.confirmPendingActions()).status).toBe('waiting_for_confirmation');
      await conversation.rejectPendingActions('not this');
      const events = [];
      for await (const event of conversation.events()) events.push(event);
      expect(
        events.some((event) => event.kind === 'UserRejectObservation' && event.rejection_reason === 'not this'),
      ).toBe(true);
    } finally {
      await conversation.close();
    }
  });

  it('answers side questions and makes titles', async () => {
    const conversation = await RemoteConversation.create(server.url, {
      ...options,
      agent: scriptedAgent([{ content: 'Forty-two.' }, { content: 'A Short Title' }]),
    });
    try {
      await conversation.sendMessage('what is the answer?');
      expect(await conversation.askAgent('the answer?')).toBe('Forty-two.');
      const title = await conversation.generateTitle();
      expect(title.length).toBeGreaterThan(8);
      expect((await conversation.generateTitle({ maxLength: 8 })).length).toBeLessThanOrEqual(8);
      const recorded = await conversation.generateTitle();
      expect((await info(conversation.id)).title).toBe(recorded);
      // Reaches the condense route, which refuses an agent without a condenser (a wrong path would be a 404).
      await expect(conversation.condense()).rejects.toMatchObject({ code: 'remote_request_failed', status: 400 });
    } finally {
      await conversation.close();
    }
  });
});
