// Run endings other than the finish tool, judged by the official `openai` SDK against a real server on loopback: an
// agent that answers in a plain message (its model replied with text and no tool call, which ends the run) has it as
// the answer on both faces; a run the stuck detector stopped (no error event recorded, only the status) is a 500
// agent_run_failed saying so, not an internal error of the gateway; a run someone else interrupted (an operator on the
// REST API) is a 409 agent_run_not_finished naming the paused status, not an empty answer.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, type TestServer } from '../helpers.js';
import { GATEWAY_KEY, rejectionOf, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe("an agent's plain message as its last word", () => {
  it('is the chat completion', async () => {
    server.llm.push({ content: 'Answered without the finish tool.' });
    const completion = await client.chat.completions.create({
      model: 'x-terminal',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Answered without the finish tool.');
  });

  it('is the response output_text', async () => {
    server.llm.push({ content: 'Also answered in a message.' });
    const response = await client.responses.create({ model: 'x-terminal', input: 'hi' });
    expect(response.output_text).toBe('Also answered in a message.');
  });
});

describe('a run the stuck detector stopped', () => {
  it('is a 500 agent_run_failed naming the stuck status', async () => {
    // The same command answered the same way four times over: the detector's action/observation loop.
    const same = { toolCalls: [{ name: 'terminal', arguments: { command: 'echo same-again' } }] };
    server.llm.push(same, same, same, same);
    const error = await rejectionOf(
      client.chat.completions.create({ model: 'x-terminal', messages: [{ role: 'user', content: 'loop' }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error).toMatchObject({ status: 500, code: 'agent_run_failed', type: 'server_error' });
    expect((error as Error).message).toContain('ended with status stuck');
  });
});

describe('a run interrupted from the REST API while its client waits', () => {
  it('is a 409 ConflictError agent_run_not_finished naming the paused status', async () => {
    server.llm.push({ hang: true });
    const asked = server.llm.requests.length + 1;
    const call = rejectionOf(
      client.chat.completions.create({ model: 'x-terminal', messages: [{ role: 'user', content: 'wait' }] }),
    );
    await server.llm.waitForRequests(asked);
    const running = (await server.built.manager.list()).filter((conversation) => conversation.isRunning);
    expect(running).toHaveLength(1);
    const interrupted = await server.call('POST', `/api/conversations/${running[0]?.id}/interrupt`, undefined, {
      'X-Session-API-Key': GATEWAY_KEY,
    });
    expect(interrupted.status).toBe(200);
    const error = await call;
    expect(error).toBeInstanceOf(OpenAI.ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'agent_run_not_finished' });
    expect((error as Error).message).toContain('stopped with status paused');
  });
});
