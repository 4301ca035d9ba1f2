// Two turns sent at the same moment to one conversation through the official `openai` SDK (Chat Completions and
// Responses), against a real server: the conversation's meta.json writes are held from the moment the first turn is
// recorded (its request is then between recording its turn and starting its run), and the second is sent then. The
// second is refused with 409 `conversation_running` with nothing of it recorded; the first is recorded once and
// answered by its own run. No timing is involved: the test waits for the second request to settle or be recorded.
import { randomUUID } from 'node:crypto';
import type { Conversation } from '@x/agent';
import { startScriptedLLMServer } from '@x/agent/testing';
import { createLocalFileStore } from '@x/store';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, startTestServer, type TestServer, tempDir, waitFor } from '../helpers.js';
import { CONVERSATION_HEADER, GATEWAY_KEY } from '../support/openai-gateway.js';
import { storeGate } from '../support/store-gate.js';

const MODEL = 'x-terminal';
let server: TestServer;
let client: OpenAI;
let gate: ReturnType<typeof storeGate>;

beforeAll(async () => {
  const dataDir = await tempDir();
  gate = storeGate(createLocalFileStore({ root: dataDir }), 'write', (path) => path.endsWith('/meta.json'));
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    dataDir,
    llm,
    config: {
      apiKeys: [GATEWAY_KEY],
      openaiModels: {
        [MODEL]: {
          agent: {
            llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test-secret' },
            tools: [{ name: 'TerminalTool' }],
          },
        },
      },
    },
    build: { store: gate.store },
  });
  client = new OpenAI({ apiKey: GATEWAY_KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const header = (id: string) => ({ headers: { [CONVERSATION_HEADER]: id } });

const chatTurn = (id: string, text: string): Promise<string | null | undefined> =>
  client.chat.completions
    .create({ model: MODEL, messages: [{ role: 'user', content: text }] }, header(id))
    .then((completion) => completion.choices[0]?.message.content);

const responsesTurn = (id: string, text: string): Promise<string | null | undefined> =>
  client.responses.create({ model: MODEL, input: text }, header(id)).then((response) => response.output_text);

function userTextsOf(event: Parameters<Parameters<Conversation['subscribe']>[0]>[0]): string[] {
  if (event.kind !== 'MessageEvent' || event.source !== 'user') return [];
  return event.llm_message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

/** The user texts the conversation's log holds. */
async function recordedUserTexts(id: string): Promise<string[]> {
  const conversation = await (await server.built.manager.require(id)).open();
  return (await conversation.log.range(0, conversation.log.length)).flatMap(userTextsOf);
}

type Turn = (id: string, text: string) => Promise<string | null | undefined>;

/**
 * Sends `first` to a conversation that answered one turn and, once its turn is recorded (its meta.json write held),
 * `second`; then lets the first go on. What each turn came to.
 */
async function raceTurns(first: Turn, second: Turn) {
  const id = randomUUID();
  server.llm.push(finishReply('Started.'));
  expect(await chatTurn(id, 'start')).toBe('Started.');
  const conversation = await (await server.built.manager.require(id)).open();
  const recorded: string[] = [];
  const unsubscribe = conversation.subscribe((event, index) => {
    if (index === undefined) return;
    const texts = userTextsOf(event);
    recorded.push(...texts);
    if (texts.includes('first turn')) gate.hold();
  });
  // One reply: one run (a second would find none, and fail).
  server.llm.push(finishReply('Answer one.'));
  const before = server.llm.requests.length;
  // The gate counts every write it held, in earlier cases too.
  const heldBefore = gate.held();
  try {
    const firstOutcome = first(id, 'first turn').then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await waitFor(async () => gate.held() > heldBefore);
    let secondSettled = false;
    const secondOutcome = second(id, 'second turn').then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    void secondOutcome.then(() => {
      secondSettled = true;
    });
    // Refused at once, or (had it passed the check) recorded while the first turn waits to start its run.
    await waitFor(async () => secondSettled || recorded.includes('second turn'));
    gate.release();
    return {
      first: await firstOutcome,
      second: await secondOutcome,
      texts: await recordedUserTexts(id),
      modelCalls: server.llm.requests.length - before,
    };
  } finally {
    gate.release();
    unsubscribe();
  }
}

describe('two turns sent at once to one conversation', () => {
  it.each([
    ['two chat completions', chatTurn, chatTurn],
    ['a Responses turn, then a chat completion', responsesTurn, chatTurn],
    ['a chat completion, then a Responses turn', chatTurn, responsesTurn],
  ])('%s: the second is a 409 conversation_running, recorded nowhere', async (_name, first, second) => {
    const outcome = await raceTurns(first, second);
    expect(outcome.first).toEqual({ value: 'Answer one.' });
    expect('error' in outcome.second && outcome.second.error).toBeInstanceOf(OpenAI.ConflictError);
    expect(outcome.second).toMatchObject({ error: { status: 409, code: 'conversation_running' } });
    expect(outcome.texts).toEqual(['start', 'first turn']);
    expect(outcome.modelCalls).toBe(1);
  });
});
