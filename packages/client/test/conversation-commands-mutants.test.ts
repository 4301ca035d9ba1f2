import type { XServe } from '@x/browser-testing';
import type { AnyEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversationCommands, RemoteConversation } from '../src/index.js';
import { api, eventually, finish, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const echo = { toolCalls: [{ name: 'terminal', arguments: { command: 'echo hi' } }] };

async function status(id: string): Promise<unknown> {
  return ((await api(server, 'GET', `/api/conversations/${id}`)) as { execution_status?: unknown }).execution_status;
}

async function events(id: string): Promise<AnyEvent[]> {
  const page = (await api(server, 'GET', `/api/conversations/${id}/events/search?limit=100`)) as { items: AnyEvent[] };
  return page.items;
}

async function create(script: Parameters<typeof scriptedAgent>[0], policy = 'NeverConfirm'): Promise<string> {
  const info = (await api(server, 'POST', '/api/conversations', {
    agent: scriptedAgent(script, ['terminal']),
    workspace: { working_dir: '.' },
    confirmation_policy: { kind: policy },
  })) as { id: string };
  return info.id;
}

describe('createConversationCommands against x serve', TEST_TIMEOUT, () => {
  it('adds a message without a run unless asked, and runs', async () => {
    const id = await create([finish('one'), finish('two')]);
    const commands = createConversationCommands(server.url, id, { apiKey: KEY });
    await commands.sendMessage('only a message');
    expect(await status(id)).toBe('idle');
    expect((await events(id)).map((event) => event.kind)).toEqual(['SystemPromptEvent', 'MessageEvent']);
    await commands.run();
    await eventually(() => status(id)).toBe('finished');
    await commands.sendMessage('and run', { run: true });
    await eventually(async () => (await events(id)).filter((event) => event.kind === 'ActionEvent').length).toBe(2);
  });

  it('confirms and rejects pending actions', async () => {
    const id = await create([echo, echo, finish('done')], 'AlwaysConfirm');
    const commands = createConversationCommands(server.url, id, { apiKey: KEY });
    await commands.sendMessage('go', { run: true });
    await eventually(() => status(id)).toBe('waiting_for_confirmation');
    await commands.confirm();
    await eventually(async () => (await events(id)).filter((event) => event.kind === 'ObservationEvent').length).toBe(
      1,
    );
    await eventually(() => status(id)).toBe('waiting_for_confirmation');
    await commands.reject('no thanks');
    await eventually(async () =>
      (await events(id)).some(
        (event) => event.kind === 'UserRejectObservation' && event.rejection_reason === 'no thanks',
      ),
    ).toBe(true);
  });

  it('forks, whole or up to an event, and pauses and interrupts', async () => {
    const id = await create([]);
    const commands = createConversationCommands(server.url, id, { apiKey: KEY });
    await commands.sendMessage('one');
    await commands.sendMessage('two');
    const [first] = await events(id);
    const whole = await commands.fork();
    expect(whole.id).not.toBe(id);
    expect(whole.event_count).toBe(3);
    const partial = await commands.fork({ fromEventId: first!.id });
    expect(partial.event_count).toBe(1);
    expect(partial.leaf_event_id).toBe(first!.id);
    await commands.pause();
    await commands.interrupt();
    const forked = await RemoteConversation.attach(server.url, partial.id, { apiKey: KEY });
    expect(forked.leafEventId).toBe(first!.id);
    await forked.close();
  });
});
