// Messages sent at once to one task through `@a2a-js/sdk`'s client, against a real server: a task that is working
// refuses a message (-32004), and so does one that a message sent at the same moment set working, with nothing of
// the refused message recorded: the model never reads a turn whose sender was told it failed. The same holds for
// messages that open one new context (the client's own context id) at the same moment.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

async function userTexts(id: string): Promise<string[]> {
  const conversation = await (await fixture.server.built.manager.require(id)).open();
  const events = await conversation.log.range(0, conversation.log.length);
  return events.flatMap((event) =>
    event.kind === 'MessageEvent' && event.source === 'user'
      ? event.llm_message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
      : [],
  );
}

/** Sends the messages at once; returns the texts of those taken, and checks the others were refused as -32004. */
async function sendAtOnce(contextId: string, texts: readonly string[]): Promise<string[]> {
  const outcomes = await Promise.allSettled(
    texts.map((text) => fixture.client.sendMessage(send(userMessage([textPart(text)], { contextId })))),
  );
  const taken: string[] = [];
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.status === 'fulfilled') taken.push(texts[index] as string);
    else {
      expect(outcome.reason).toMatchObject({
        name: 'UnsupportedOperationError',
        message: expect.stringContaining('is working'),
      });
    }
  }
  return taken;
}

describe('A2A messages sent at once to one task', () => {
  it('takes one and refuses the others while it works, recording none of them', async () => {
    fixture.server.llm.push(finishReply('First.'));
    const first = (await fixture.client.sendMessage(send(userMessage([textPart('Start')])))) as { id: string };
    // One reply: one run.
    fixture.server.llm.push(finishReply('Taken.'));

    const taken = await sendAtOnce(first.id, ['A', 'B', 'C']);
    expect(taken).toHaveLength(1);
    expect(await userTexts(first.id)).toEqual(['Start', ...taken]);
  });

  it('starts a new context once when its first messages come at once', async () => {
    const contextId = randomUUID();
    fixture.server.llm.push(finishReply('Taken.'));
    const taken = await sendAtOnce(contextId, ['D', 'E', 'F']);
    expect(taken).toHaveLength(1);
    expect(await userTexts(contextId)).toEqual(taken);
  });
});
