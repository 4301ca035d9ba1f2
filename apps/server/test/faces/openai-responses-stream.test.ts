// The gateway's Responses API streamed, judged by the official `openai` SDK against a real server whose agent uses the
// scripted model on loopback: `stream: true` opens with the response in progress while the agent works, then OpenAI's
// events of one output message in their order with rising sequence numbers; the `responses.stream()` helper
// assembles them into the final response; a run that fails ends the stream with `response.failed`; and a client that
// aborts the stream interrupts the run, the response then retrieved as cancelled.
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer, waitFor } from '../helpers.js';
import { CONVERSATION_HEADER, GATEWAY_KEY, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const ANSWER_EVENTS = [
  'response.output_item.added',
  'response.content_part.added',
  'response.output_text.delta',
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
  'response.completed',
];

describe('responses.create with stream: true', () => {
  it('sends the response in progress while the agent works, then the answer events in order, numbered', async () => {
    const held = gate();
    server.llm.push({ ...finishReply('streamed answer'), gate: held.promise });
    const stream = await client.responses.create({ model: 'x-terminal', input: 'Stream it', stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    // The first two events came while the model was still held: the stream is live, not replayed at the end.
    for (const _ of [0, 1]) events.push((await iterator.next()).value as OpenAI.Responses.ResponseStreamEvent);
    expect(events.map((event) => event.type)).toEqual(['response.created', 'response.in_progress']);
    held.open();
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) events.push(next.value);

    expect(events.map((event) => event.type)).toEqual(['response.created', 'response.in_progress', ...ANSWER_EVENTS]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    // The answer is the response's only output item: every event that places it says so, the item's opening too.
    const placed = events.flatMap((event) => ('output_index' in event ? [[event.type, event.output_index]] : []));
    expect(placed).toEqual(ANSWER_EVENTS.slice(0, -1).map((type) => [type, 0]));
    const created = events[0] as OpenAI.Responses.ResponseCreatedEvent;
    expect(created.response).toMatchObject({ status: 'in_progress', output: [] });
    const delta = events.find((event) => event.type === 'response.output_text.delta') as
      | OpenAI.Responses.ResponseTextDeltaEvent
      | undefined;
    expect(delta).toMatchObject({ output_index: 0, content_index: 0, delta: 'streamed answer' });
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response).toMatchObject({ id: created.response.id, status: 'completed' });
    expect(completed.response.output_text).toBe('streamed answer');
    expect(completed.response.usage).toMatchObject({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
    const item = events.find((event) => event.type === 'response.output_item.done');
    expect((item as OpenAI.Responses.ResponseOutputItemDoneEvent).item.id).toBe(delta?.item_id);
  });

  it('frames each event as a named server-sent event, with the conversation and request id headers', async () => {
    server.llm.push(finishReply('raw'));
    const response = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x-terminal', input: 'hi', stream: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get(CONVERSATION_HEADER)).toBeTruthy();
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const frames = (await response.text()).split('\n\n').filter((frame) => frame !== '');
    expect(frames).toHaveLength(2 + ANSWER_EVENTS.length);
    for (const frame of frames) {
      const [eventLine, dataLine] = frame.split('\n');
      const data = JSON.parse(dataLine?.replace(/^data: /, '') ?? 'null') as { type: string };
      expect(eventLine).toBe(`event: ${data.type}`);
    }
  });

  it('is retrievable once streamed, as its response.completed event had it', async () => {
    server.llm.push(finishReply('kept after streaming'));
    const stream = await client.responses.create({ model: 'x-terminal', input: 'Stream and keep', stream: true });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
    expect(completed?.status).toBe('completed');
    const retrieved = await client.responses.retrieve(completed?.id as string);
    expect(retrieved.output_text).toBe('kept after streaming');
    expect(retrieved.usage).toEqual(completed?.usage);
  });

  it('ends with response.failed naming why when the run fails', async () => {
    server.llm.push({ error: { status: 400, message: 'the model refused the request' } });
    const stream = await client.responses.create({ model: 'x-terminal', input: 'fail', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['response.created', 'response.in_progress', 'response.failed']);
    expect(events.map((event) => event.sequence_number)).toEqual([0, 1, 2]);
    const failed = (events[2] as OpenAI.Responses.ResponseFailedEvent).response;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'agent_run_failed' });
    expect(failed.error?.message).toContain('ended with status error');
    expect((await client.responses.retrieve(failed.id)).status).toBe('failed');
  });
});

describe('the responses.stream() helper', () => {
  it('assembles the final response and the text deltas', async () => {
    server.llm.push(finishReply('assembled answer'));
    const runner = client.responses.stream({ model: 'x-terminal', input: 'Stream it', instructions: 'Be kind.' });
    const deltas: string[] = [];
    runner.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await runner.finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe('assembled answer');
    expect(final.instructions).toBe('Be kind.');
    expect(final.output[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(deltas.join('')).toBe('assembled answer');
  });
});

describe('a client that aborts the stream', () => {
  it('interrupts the run, and the response, in progress until then, is cancelled', async () => {
    server.llm.push({ hang: true });
    const before = server.llm.requests.length;
    const { data: stream, response } = await client.responses
      .create({ model: 'x-terminal', input: 'Think for ever', stream: true })
      .withResponse();
    const iterator = stream[Symbol.asyncIterator]();
    const created = (await iterator.next()).value as OpenAI.Responses.ResponseCreatedEvent;
    expect(created.type).toBe('response.created');
    await server.llm.waitForRequests(before + 1);
    // While its run works, the response is in progress.
    expect((await client.responses.retrieve(created.response.id)).status).toBe('in_progress');
    stream.controller.abort();

    await server.llm.waitForClientClose(before);
    const managed = await server.built.manager.require(response.headers.get(CONVERSATION_HEADER) as string);
    await waitFor(async () => !managed.isRunning);
    const conversation = await managed.open();
    expect(conversation.state.execution_status).toBe('paused');
    await waitFor(async () => (await client.responses.retrieve(created.response.id)).status !== 'in_progress');
    const retrieved = await client.responses.retrieve(created.response.id);
    expect(retrieved).toMatchObject({ status: 'cancelled', error: null, output: [] });
    expect(server.llm.requests.length).toBe(before + 1);
  });
});
