// A dropped `run` stream resumes without loss, judged by the official SDK's StreamableHTTPClientTransport against a
// real server on 127.0.0.1: the client's own reconnection (GET with Last-Event-ID) replays the progress and the
// result the run produced meanwhile, with no gap and no duplicate; a new client resumes the session's stream with
// the resumption token; the run neither stops nor runs twice. Streams are dropped by cutting the HTTP response
// body on the client side (the socket closes, as a network failure would).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../src/index.js';
import {
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
  waitForIdle,
} from '../helpers.js';

let server: TestServer;
const CALL = { timeout: 120_000, resetTimeoutOnProgress: true };
/** The client retries quickly (the server may not have seen the drop yet: 409) and long enough for a loaded machine. */
const RECONNECT = {
  initialReconnectionDelay: 20,
  maxReconnectionDelay: 500,
  reconnectionDelayGrowFactor: 2,
  maxRetries: 200,
};

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: { mcpConversation: createRequest(llm) as ServerConfigInput['mcpConversation'] },
  });
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

/**
 * A fetch that cuts the SSE response of the `run` call after `keep` progress notifications (whole events only),
 * and holds every resuming GET (Last-Event-ID) until `resume` opens.
 */
function droppingFetch(keep: number) {
  const dropped = gate();
  const resume = gate();
  const lastEventIds: string[] = [];
  const fetcher = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const lastEventId = headers.get('last-event-id');
    if (init?.method === 'GET' && lastEventId !== null) {
      lastEventIds.push(lastEventId);
      await resume.promise;
    }
    const response = await fetch(input, init);
    const isRun = init?.method === 'POST' && typeof init.body === 'string' && init.body.includes('"name":"run"');
    if (!isRun || response.body === null) return response;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    let progress = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        buffered += value;
        let end = buffered.indexOf('\n\n');
        while (end >= 0) {
          const event = buffered.slice(0, end + 2);
          buffered = buffered.slice(end + 2);
          controller.enqueue(new TextEncoder().encode(event));
          if (event.includes('notifications/progress')) progress += 1;
          if (progress === keep) {
            // The connection goes (the server sees its socket close); what was received is still read.
            await reader.cancel();
            controller.close();
            dropped.open();
            return;
          }
          end = buffered.indexOf('\n\n');
        }
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetcher, dropped: dropped.promise, resume: resume.open, lastEventIds };
}

async function start(client: Client): Promise<string> {
  const started = (await client.callTool({ name: 'start_conversation', arguments: {} })) as CallToolResult;
  return (started.structuredContent as { conversation_id: string }).conversation_id;
}

describe('a dropped run stream over streamable HTTP', () => {
  it("is resumed by the SDK client's reconnection: every progress and the result, once each", async () => {
    const held = gate();
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo before-the-drop' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo while-away' } }], gate: held.promise },
      finishReply('Done while you were away.'),
    );
    const drop = droppingFetch(2);
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
      fetch: drop.fetcher,
      reconnectionOptions: RECONNECT,
    });
    const client = new Client({ name: 'x-mcp-resume-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const id = await start(client);
      const asked = server.llm.requests.length;
      const progress: Progress[] = [];
      const call = client.callTool(
        { name: 'run', arguments: { conversation_id: id, message: 'Two steps' } },
        undefined,
        {
          ...CALL,
          onprogress: (update) => progress.push(update),
        },
      );
      await drop.dropped;
      await waitFor(async () => progress.length === 2);
      // The run goes on without the client and finishes while its stream is down.
      held.open();
      await waitForIdle(server, id);
      drop.resume();
      const result = (await call) as CallToolResult;
      expect(result.structuredContent).toMatchObject({ status: 'finished', final_answer: 'Done while you were away.' });
      expect(drop.lastEventIds.length).toBeGreaterThan(0);

      // Progress is the log's length after each event the run appended: consecutive, none twice, up to the end.
      const log = (await server.built.manager.require(id)).log;
      const values = progress.map((update) => update.progress);
      expect(values.at(-1)).toBe(log.length);
      expect(values).toEqual(values.map((_, index) => (values[0] ?? 0) + index));
      expect(progress.map((update) => update.message)).toContainEqual('agent calls terminal: echo while-away');
      // The run ran once: three model calls, none repeated for the reconnection.
      expect(server.llm.requests.length - asked).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('is resumed by a new client on the same session with the resumption token, and the result is the run it left', async () => {
    const held = gate();
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo first' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo second' } }], gate: held.promise },
      finishReply('Resumed by token.'),
    );
    const drop = droppingFetch(2);
    const url = new URL(`${server.url}/api/mcp`);
    // No reconnection of its own: this client goes away after the drop.
    const first = new StreamableHTTPClientTransport(url, {
      fetch: drop.fetcher,
      reconnectionOptions: { ...RECONNECT, maxRetries: 0 },
    });
    const leaving = new Client({ name: 'x-mcp-leaving', version: '1.0.0' });
    leaving.onerror = () => undefined;
    await leaving.connect(first);
    const id = await start(leaving);
    const asked = server.llm.requests.length;
    let token: string | undefined;
    void leaving
      .request(
        { method: 'tools/call', params: { name: 'run', arguments: { conversation_id: id, message: 'Go on' } } },
        CallToolResultSchema,
        // onprogress: the call carries a progressToken, so the run sends progress.
        { ...CALL, onprogress: () => undefined, onresumptiontoken: (next) => (token = next) },
      )
      .catch(() => undefined);
    await drop.dropped;
    const sessionId = first.sessionId;
    await leaving.close();
    held.open();
    await waitForIdle(server, id);

    const second = new StreamableHTTPClientTransport(url, { sessionId, reconnectionOptions: RECONNECT });
    const back = new Client({ name: 'x-mcp-back', version: '1.0.0' });
    back.onerror = () => undefined;
    await back.connect(second);
    try {
      expect(token).toBeDefined();
      const result = await back.request(
        { method: 'tools/call', params: { name: 'run', arguments: { conversation_id: id } } },
        CallToolResultSchema,
        { ...CALL, resumptionToken: token },
      );
      expect(result.structuredContent).toMatchObject({ status: 'finished', final_answer: 'Resumed by token.' });
      expect(server.llm.requests.length - asked).toBe(3);
    } finally {
      await back.close();
    }
  });

  it('refuses a Last-Event-ID the session never sent, with a typed error', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`));
    const client = new Client({ name: 'x-mcp-resume-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const response = await fetch(`${server.url}/api/mcp`, {
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': transport.sessionId ?? '',
          'last-event-id': '999999',
        },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { code: -32000, message: expect.stringContaining('999999') },
      });
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});
