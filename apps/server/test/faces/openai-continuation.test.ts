// Continuing a conversation by its header, judged by the official `openai` SDK against a real server with two models
// (two agents on the scripted model on loopback, each its own LLM model name): a conversation keeps the agent and the
// system message it started with, so a follow-up asking another model or other system text is refused before any run,
// on Chat Completions (whole and streamed) as on Responses, as `previous_response_id` is; one asking the same runs.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, type TestServer } from '../helpers.js';
import { CONVERSATION_HEADER, GATEWAY_KEY, rejectionOf, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  const agentOf = (model: string) => (baseURL: string) => ({
    agent: { llm: { model, base_url: baseURL, api_key: 'sk-test-secret' }, tools: [{ name: 'TerminalTool' }] },
  });
  ({ server, client } = await startGateway({ 'x-first': agentOf('llm-first'), 'x-second': agentOf('llm-second') }));
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const header = (id: string) => ({ headers: { [CONVERSATION_HEADER]: id } });

/** A conversation the gateway started with `model` (and `system` text, when given): its id. */
async function started(model: string, system?: string): Promise<string> {
  server.llm.push(finishReply('started'));
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'start' }];
  if (system !== undefined) messages.unshift({ role: 'system', content: system });
  const { response } = await client.chat.completions.create({ model, messages }).withResponse();
  const id = response.headers.get(CONVERSATION_HEADER) as string;
  expect(await userTexts(id)).toEqual([expect.stringContaining('start')]);
  return id;
}

/** The user texts the conversation recorded (a refused turn records none). */
async function userTexts(id: string): Promise<string[]> {
  const conversation = await server.built.manager.require(id);
  const events = await conversation.log.range(0, conversation.log.length);
  return events
    .filter((event) => event.kind === 'MessageEvent' && (event as { source?: string }).source === 'user')
    .map((event) => JSON.stringify(event));
}

async function expectRefusedBeforeAnyRun(id: string, call: () => Promise<unknown>, param: string): Promise<void> {
  const before = server.llm.requests.length;
  const recorded = (await userTexts(id)).length;
  const error = await rejectionOf(call());
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  expect(error).toMatchObject({ param, code: 'unsupported_value', type: 'invalid_request_error' });
  expect(server.llm.requests.length).toBe(before);
  expect(await userTexts(id)).toHaveLength(recorded);
}

describe('a chat completion continuing a conversation by its header', () => {
  it("with the conversation's model runs that model's agent", async () => {
    const id = await started('x-second');
    server.llm.push(finishReply('again'));
    const from = server.llm.requests.length;
    const next = await client.chat.completions.create(
      { model: 'x-second', messages: [{ role: 'user', content: 'again' }] },
      header(id),
    );
    expect(next).toMatchObject({ model: 'x-second', choices: [{ message: { content: 'again' } }] });
    expect(server.llm.requests.slice(from).map((request) => request.model)).toEqual(['llm-second']);
  });

  it('with another model is a 400 naming model, before any run, whole and streamed', async () => {
    const id = await started('x-first');
    const ask = (stream: boolean) =>
      client.chat.completions.create(
        { model: 'x-second', messages: [{ role: 'user', content: 'switch models' }], stream },
        header(id),
      );
    await expectRefusedBeforeAnyRun(id, () => ask(false), 'model');
    await expectRefusedBeforeAnyRun(id, () => ask(true), 'model');
    expect(((await rejectionOf(ask(false))) as Error).message).toContain("send model 'x-first'");
  });

  it('with new system text is a 400 naming messages, before any run, whole and streamed', async () => {
    const id = await started('x-first', 'Answer in French.');
    const ask = (stream: boolean) =>
      client.chat.completions.create(
        {
          model: 'x-first',
          messages: [
            { role: 'system', content: 'Answer in German.' },
            { role: 'user', content: 'hello' },
          ],
          stream,
        },
        header(id),
      );
    await expectRefusedBeforeAnyRun(id, () => ask(false), 'messages');
    await expectRefusedBeforeAnyRun(id, () => ask(true), 'messages');
  });

  it('with system text where the conversation started with none is a 400 naming messages', async () => {
    const id = await started('x-first');
    const call = () =>
      client.chat.completions.create(
        {
          model: 'x-first',
          messages: [
            { role: 'developer', content: 'Be terse.' },
            { role: 'user', content: 'hello' },
          ],
        },
        header(id),
      );
    await expectRefusedBeforeAnyRun(id, call, 'messages');
  });

  it('with the same system text, or none, continues', async () => {
    const id = await started('x-first', 'Answer in French.');
    server.llm.push(finishReply('oui'), finishReply('encore'));
    const same = await client.chat.completions.create(
      {
        model: 'x-first',
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'yes?' },
        ],
      },
      header(id),
    );
    const none = await client.chat.completions.create(
      { model: 'x-first', messages: [{ role: 'user', content: 'again?' }] },
      header(id),
    );
    expect([same.choices[0]?.message.content, none.choices[0]?.message.content]).toEqual(['oui', 'encore']);
  });
});

describe('a conversation the gateway did not start, continued by its header', () => {
  const createdWith = async (llmModel: string, fields: Record<string, unknown> = {}): Promise<string> => {
    const create = createRequest(server.llm);
    (create.agent as { llm: { model: string } }).llm.model = llmModel;
    Object.assign(create.agent as object, fields);
    const created = await server.call('POST', '/api/conversations', create, { 'X-Session-API-Key': GATEWAY_KEY });
    expect(created.status).toBe(201);
    return (created.json as { id: string }).id;
  };

  it("runs when its agent is the model's agent, options it sends as null or empty included", async () => {
    const id = await createdWith('llm-first', { condenser: null, system_prompt: null, agent_context: {} });
    server.llm.push(finishReply('ran'));
    const answer = await client.chat.completions.create(
      { model: 'x-first', messages: [{ role: 'user', content: 'go' }] },
      header(id),
    );
    expect(answer.choices[0]?.message.content).toBe('ran');
  });

  it("is a 400 naming model when its agent is not the model's", async () => {
    const id = await createdWith('llm-other');
    const call = () =>
      client.chat.completions.create({ model: 'x-first', messages: [{ role: 'user', content: 'go' }] }, header(id));
    await expectRefusedBeforeAnyRun(id, call, 'model');
  });
});

describe('a response continuing a conversation by its header', () => {
  it('with another model is a 400 naming model, before any run, whole and streamed', async () => {
    const id = await started('x-first');
    const ask = (stream: boolean) =>
      client.responses.create({ model: 'x-second', input: 'switch', stream }, header(id));
    await expectRefusedBeforeAnyRun(id, () => ask(false), 'model');
    await expectRefusedBeforeAnyRun(id, () => ask(true), 'model');
  });

  it('with other instructions is a 400 naming instructions, before any run', async () => {
    const id = await started('x-first', 'Answer in French.');
    const call = () =>
      client.responses.create({ model: 'x-first', instructions: 'Answer in German.', input: 'hello' }, header(id));
    await expectRefusedBeforeAnyRun(id, call, 'instructions');
  });

  it('with the same instructions continues', async () => {
    const id = await started('x-first', 'Answer in French.');
    server.llm.push(finishReply('oui'));
    const answer = await client.responses.create(
      { model: 'x-first', instructions: 'Answer in French.', input: 'yes?' },
      header(id),
    );
    expect(answer.output_text).toBe('oui');
  });
});
