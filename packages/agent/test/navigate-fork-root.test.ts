import { ROOT_PARENT_ID } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentError } from '../src/index.js';
import type { ScriptedRequestBody } from '../src/testing/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

type ChatMessage = { role: string; content?: unknown };
const roles = (body: ScriptedRequestBody | undefined) =>
  ((body?.messages ?? []) as ChatMessage[]).map((message) => message.role);
const systemText = (body: ScriptedRequestBody | undefined) =>
  JSON.stringify(((body?.messages ?? []) as ChatMessage[]).find((message) => message.role === 'system')?.content);

/** A conversation: system prompt, user "one", agent reply "first answer". */
async function answered(h: Harness) {
  const { conversation } = await h.conversation({ persistenceDir: h.persistenceDir });
  await conversation.sendMessage('one');
  await conversation.run();
  return conversation;
}

describe('time travel at the root of a conversation', () => {
  it('navigateTo(null) (before the system prompt): the next step still sends the system prompt', async () => {
    harness = await startHarness([{ content: 'first answer' }, { content: 'second answer' }]);
    const conversation = await answered(harness);
    const prompt = systemText(harness.server.requests[0]);
    await conversation.navigateTo(null);
    await conversation.sendMessage('fresh');
    await conversation.run();
    expect(roles(harness.server.requests[1])).toEqual(['system', 'user']);
    expect(systemText(harness.server.requests[1])).toBe(prompt);
    await conversation.close();
  });

  it('navigateTo(the system prompt): the next step sends it and the new message only', async () => {
    harness = await startHarness([{ content: 'first answer' }, { content: 'second answer' }]);
    const conversation = await answered(harness);
    const [system] = await conversation.activeBranch();
    expect(system?.kind).toBe('SystemPromptEvent');
    await conversation.navigateTo(system!.id);
    await conversation.sendMessage('again');
    await conversation.run();
    expect(roles(harness.server.requests[1])).toEqual(['system', 'user']);
    expect(systemText(harness.server.requests[1])).toBe(systemText(harness.server.requests[0]));
    await conversation.close();
  });

  it('fork at the system prompt: the fork’s next step sends it', async () => {
    harness = await startHarness([{ content: 'first answer' }, { content: 'fork answer' }]);
    const conversation = await answered(harness);
    const [system] = await conversation.activeBranch();
    const fork = await conversation.fork({ fromEventId: system!.id });
    expect((await fork.activeBranch()).map((event) => event.kind)).toEqual(['SystemPromptEvent']);
    await fork.sendMessage('in the fork');
    await fork.run();
    expect(roles(harness.server.requests[1])).toEqual(['system', 'user']);
    expect(systemText(harness.server.requests[1])).toBe(systemText(harness.server.requests[0]));
    await fork.close();
    await conversation.close();
  });

  it(`asking for the reserved root id "${ROOT_PARENT_ID}" as an event is a typed error naming it`, async () => {
    harness = await startHarness([{ content: 'first answer' }]);
    const conversation = await answered(harness);
    for (const attempt of [
      () => conversation.navigateTo(ROOT_PARENT_ID),
      () => conversation.fork({ fromEventId: ROOT_PARENT_ID }),
    ]) {
      const error = await attempt().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(AgentError.isInstance(error)).toBe(true);
      expect((error as AgentError).code).toBe('reserved_root_id');
      expect((error as Error).message).toContain(`"${ROOT_PARENT_ID}"`);
      expect((error as Error).message).toContain('navigateTo(null)');
    }
    await conversation.close();
  });
});
