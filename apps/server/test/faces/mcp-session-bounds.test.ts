// The bounds of the MCP face's HTTP sessions: the replay buffer keeps the latest messages only and says so when a
// resume asks for an evicted one (410), idle sessions end by the injected clock, and a response whose client
// stopped reading (a raw TCP client that never reads: alone, and resuming an 8 MiB answer from a real server) is
// dropped once too much piles up behind it.
import { createServer, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import { describe, expect, it } from 'vitest';
import { ResponseBackpressure } from '../../src/faces/mcp/mcp-backpressure.js';
import { SessionEventStore } from '../../src/faces/mcp/mcp-event-store.js';
import type { ServerConfigInput } from '../../src/index.js';
import { createRequest, removeDir, startTestServer, waitFor } from '../helpers.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: n },
});

describe('SessionEventStore', () => {
  it('replays the later messages of one stream in order, and drops the oldest past its size', async () => {
    const store = new SessionEventStore({ maxBytes: 10 * 200 });
    const priming = await store.storeEvent('a', {} as JSONRPCMessage);
    const ids: string[] = [];
    for (let n = 1; n <= 4; n += 1) {
      ids.push(await store.storeEvent('a', note(n)));
      await store.storeEvent('b', note(100 + n));
    }
    const replayed: [string, JSONRPCMessage][] = [];
    const stream = await store.replayEventsAfter(priming, {
      send: async (id, message) => {
        replayed.push([id, message]);
      },
    });
    expect(stream).toBe('a');
    expect(replayed).toEqual(ids.map((id, index) => [id, note(index + 1)]));
    expect(await store.getStreamIdForEventId(ids[1] ?? '')).toBe('a');

    for (let n = 5; n < 40; n += 1) await store.storeEvent('a', note(n));
    expect(store.bytes).toBeLessThanOrEqual(10 * 200);
    expect(store.check(priming)).toBe('evicted');
    expect(store.check('999999')).toBe('unknown');
    expect(store.check('not-an-id')).toBe('unknown');
    store.clear();
    expect(store.bytes).toBe(0);
  });

  it('answers a message stored during a replay of its stream only after the replay returned', async () => {
    const store = new SessionEventStore();
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('a', note(2));
    const order: string[] = [];
    let during: Promise<string> | undefined;
    const replay = store
      .replayEventsAfter(first, {
        send: async () => {
          during = store.storeEvent('a', note(3));
          void during.then(() => order.push('stored'));
        },
      })
      .then(() => order.push('replayed'));
    await replay;
    await during;
    expect(order).toEqual(['replayed', 'stored']);
  });
});

describe('ResponseBackpressure', () => {
  it('destroys a response its client does not read once more than the limit is queued behind it', async () => {
    const backpressure = new ResponseBackpressure(64 * 1024);
    let blocked!: ServerResponse;
    let reading!: ServerResponse;
    const ready = new Promise<void>((resolve) => {
      let count = 0;
      const http = createServer((request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        backpressure.track(response);
        if (request.url === '/stuck') {
          blocked = response;
          // Far more than the kernel buffers take (the same 1 MiB buffer, referenced 64 times).
          const chunk = Buffer.alloc(1024 * 1024, 'x');
          for (let n = 0; n < 64; n += 1) response.write(chunk);
        } else {
          reading = response;
          response.write(': hello\n\n');
        }
        count += 1;
        if (count === 2) resolve();
      });
      http.listen(0, '127.0.0.1', () => {
        const { port } = http.address() as { port: number };
        const stuck = connect(port, '127.0.0.1', () => {
          stuck.write(`GET /stuck HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
          // Reads nothing, ever.
          stuck.pause();
        });
        const live = connect(port, '127.0.0.1', () =>
          live.write(`GET /live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
        );
        live.on('data', () => undefined);
        live.on('close', () => closed.push('live'));
        cleanup.push(() => {
          live.destroy();
          stuck.destroy();
          http.close();
        });
      });
    });
    const closed: string[] = [];
    const cleanup: (() => void)[] = [];
    try {
      await ready;
      expect(backpressure.size).toBe(2);
      expect(blocked.writableNeedDrain).toBe(true);
      backpressure.queued(32 * 1024);
      expect(blocked.destroyed).toBe(false);
      backpressure.queued(40 * 1024);
      expect(blocked.destroyed).toBe(true);
      expect(reading.destroyed).toBe(false);
      // Its queue goes with it (the response closed: no longer watched); the client that reads keeps its stream.
      await waitFor(async () => backpressure.size === 1);
      expect(closed).toEqual([]);
    } finally {
      for (const step of cleanup) step();
    }
  });
});

describe('MCP session bounds on a real server', () => {
  it('ends a session idle past the limit by the injected clock, and refuses a resume from an evicted event', async () => {
    let now = 1_000_000;
    const server = await startTestServer({
      build: { clock: () => now, mcpSessions: { idleMs: 60_000, maxStoredBytes: 2048 } },
    });
    try {
      const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`));
      const client = new Client({ name: 'x-mcp-bounds-test', version: '1.0.0' });
      await client.connect(transport);
      const sessionId = transport.sessionId ?? '';
      // Every call's response and priming event go through the replay buffer, which keeps about 2 KiB.
      for (let n = 0; n < 6; n += 1) await client.listTools();
      const evicted = await fetch(`${server.url}/api/mcp`, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'last-event-id': '1' },
      });
      expect(evicted.status).toBe(410);
      expect(await evicted.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining("'1'") } });

      // The client goes away without ending its session; once no stream is open and the clock passed the limit,
      // the next request to the endpoint ends it.
      await client.close();
      const listTools = () =>
        fetch(`${server.url}/api/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': sessionId,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
      const alive = await listTools();
      expect(alive.status).toBe(200);
      await alive.body?.cancel();
      now += 60_001;
      await waitFor(async () => {
        const response = await listTools();
        await response.body?.cancel();
        now += 60_001;
        return response.status === 404;
      });
    } finally {
      await server.stop();
      await removeDir(server.dataDir);
    }
  });
});

describe('a client that never reads, on a real server', () => {
  it('has its stream dropped once the session queues more than the limit behind it', async () => {
    const llm = await startScriptedLLMServer();
    const server = await startTestServer({
      llm,
      config: {
        bodyLimit: 16 * 1024 * 1024,
        mcpConversation: createRequest(llm) as ServerConfigInput['mcpConversation'],
      },
      build: { mcpSessions: { maxBlockedBytes: 16 * 1024, maxStoredBytes: 64 * 1024 * 1024 } },
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`));
    const client = new Client({ name: 'x-mcp-stuck-test', version: '1.0.0' });
    const cleanup: (() => void)[] = [];
    try {
      await client.connect(transport);
      // A log far larger than what the kernel buffers of one connection take (8 MiB in one event).
      const started = (await client.callTool({ name: 'start_conversation', arguments: {} })) as CallToolResult;
      const id = (started.structuredContent as { conversation_id: string }).conversation_id;
      await client.callTool({ name: 'send_message', arguments: { conversation_id: id, message: 'x'.repeat(8 << 20) } });
      let priming: string | undefined;
      await client.readResource(
        { uri: `x://conversations/${id}/events` },
        { onresumptiontoken: (token) => (priming ??= token), timeout: 120_000 },
      );
      expect(priming).toBeDefined();

      // A raw client resumes that stream (the 8 MiB answer is replayed to it), reads its first bytes, then stops.
      const port = Number(new URL(server.url).port);
      let received = 0;
      let stuck!: Socket;
      const firstBytes = new Promise<void>((resolve) => {
        stuck = connect(port, '127.0.0.1', () => {
          stuck.write(
            `GET /api/mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n` +
              `Mcp-Session-Id: ${transport.sessionId}\r\nLast-Event-ID: ${priming}\r\n\r\n`,
          );
        });
        stuck.on('data', (chunk: Buffer) => {
          if (received === 0) stuck.pause();
          received += chunk.length;
          resolve();
        });
      });
      const ended = new Promise<void>((resolve) => {
        stuck.on('close', () => resolve());
        stuck.on('error', () => resolve());
      });
      cleanup.push(() => stuck.destroy());
      await firstBytes;
      // The session goes on sending (answers to this client's calls): past the limit, the stuck stream is dropped.
      for (let n = 0; n < 10; n += 1) await client.listTools();
      // Reading again, the client gets what the kernel held, then the end: not the 8 MiB, not a stream left open.
      stuck.resume();
      await ended;
      expect(received).toBeGreaterThan(0);
      expect(received).toBeLessThan(8 << 20);
    } finally {
      for (const step of cleanup) step();
      await client.close();
      await server.stop();
      await removeDir(server.dataDir);
    }
  });
});
