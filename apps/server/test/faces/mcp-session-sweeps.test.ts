// When McpSessions ends an idle session, by its injected clock: a sweep is due as often as the idle limit is short,
// idleness counts from the end of the last request (a long stream that just closed is not idle), an initialize that
// finds the cap reached ends the idle sessions first, and an ended session's replay buffer is let go. The sessions
// are driven over real HTTP (a plain node:http server on 127.0.0.1 that hands each request to them, as the route
// does) with the real MCP SDK and the server's conversation host; the test calls the sweeps itself, and the
// background sweeper's interval is never let fire (only `setInterval` is faked, while the sessions are made).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManagerHost } from '../../src/faces/mcp/manager-host.js';
import { McpSessionLimitError } from '../../src/faces/mcp/mcp-session-limit-error.js';
import type { McpSessionLimits } from '../../src/faces/mcp/mcp-session-limits.js';
import { McpSessions } from '../../src/faces/mcp/mcp-sessions.js';
import { waitFor } from '../helpers.js';
import { type InProcessManager, recordingLogger, startInProcessManager } from '../support/in-process-manager.js';

const T0 = 1_000_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

interface Harness {
  sessions: McpSessions;
  url: string;
  clock: { now: number };
}

/** McpSessions behind a plain HTTP server: no session id opens one (503 at the cap), a known id is handled. */
async function harness(limits: Omit<McpSessionLimits, 'now'>): Promise<Harness> {
  const inProcess: InProcessManager = await startInProcessManager();
  cleanups.push(() => inProcess.stop());
  const clock = { now: T0 };
  const host = createManagerHost(inProcess.manager, {
    listing: inProcess.listing,
    logger: recordingLogger().logger,
  });
  // The sweeper's timer is registered on a fake clock that never runs: only the test's calls sweep.
  vi.useFakeTimers({ toFake: ['setInterval'] });
  let sessions: McpSessions;
  try {
    sessions = new McpSessions(host, { name: 'x', version: '0.0.0' }, { ...limits, now: () => clock.now });
  } finally {
    vi.useRealTimers();
  }
  const http: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const id = request.headers['mcp-session-id'];
      try {
        const session = typeof id === 'string' ? sessions.get(id) : await sessions.open();
        if (session === undefined) {
          response.writeHead(404).end();
          return;
        }
        await sessions.handle(session, request, response, body);
      } catch (error) {
        response.writeHead(McpSessionLimitError.isInstance(error) ? 503 : 500).end();
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    await sessions.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return { sessions, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/`, clock };
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** An initialize, read to its end; the session's id, once the session has no request open. */
async function initialize(h: Harness): Promise<{ status: number; id: string | undefined }> {
  const response = await fetch(h.url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sweeps', version: '1.0.0' } },
    }),
  });
  await response.text();
  const id = response.headers.get('mcp-session-id') ?? undefined;
  if (id !== undefined) await waitFor(async () => h.sessions.get(id)?.openRequests === 0);
  return { status: response.status, id };
}

/** A `tools/list` in session `id`, read to its end; its status. */
async function listTools(h: Harness, id: string): Promise<number> {
  const response = await fetch(h.url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
  });
  await response.text();
  return response.status;
}

describe('McpSessions sweeps, by the injected clock', () => {
  it('sweeps once per interval as short as the idle limit, ending the sessions idle for it, and empties their buffer', async () => {
    const h = await harness({ idleMs: 1000 });
    const { id } = await initialize(h);
    const session = h.sessions.get(id!)!;
    expect(session.store.bytes).toBeGreaterThan(0);
    h.clock.now = T0 + 500;
    const later = (await initialize(h)).id!;

    h.clock.now = T0 + 999;
    await h.sessions.sweepIfDue();
    expect(h.sessions.get(id!)).toBe(session);
    // Due a limit after the last sweep (the sessions' creation): the first session is idle for exactly the limit.
    h.clock.now = T0 + 1000;
    await h.sessions.sweepIfDue();
    expect(h.sessions.get(id!)).toBeUndefined();
    expect(h.sessions.get(later)).toBeDefined();
    // The replay buffer goes with the session, not when the garbage collector comes by.
    expect(session.store.bytes).toBe(0);

    // The other is idle for the limit too now, but the next sweep is due only a limit after the last one.
    h.clock.now = T0 + 1500;
    await h.sessions.sweepIfDue();
    expect(h.sessions.get(later)).toBeDefined();
    h.clock.now = T0 + 2000;
    await h.sessions.sweepIfDue();
    expect(h.sessions.size).toBe(0);
  });

  it('counts idleness from the end of the last request: a stream open for long is not idle once it closes', async () => {
    const h = await harness({ idleMs: 1000 });
    const { id } = await initialize(h);
    const stream = new AbortController();
    const response = await fetch(h.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': id!, 'mcp-protocol-version': '2025-06-18' },
      signal: stream.signal,
    });
    expect(response.status).toBe(200);
    await waitFor(async () => h.sessions.get(id!)?.openRequests === 1);

    // Open far past the limit: not ended while its stream is open.
    h.clock.now = T0 + 5000;
    await h.sessions.sweep();
    expect(h.sessions.get(id!)).toBeDefined();
    stream.abort();
    await response.body?.cancel().catch(() => undefined);
    await waitFor(async () => h.sessions.get(id!)?.openRequests === 0);
    // Closed just now: idle for 0 ms.
    await h.sessions.sweep();
    expect(h.sessions.get(id!)).toBeDefined();
    h.clock.now = T0 + 6000;
    await h.sessions.sweep();
    expect(h.sessions.get(id!)).toBeUndefined();
  });

  it('at the cap, an initialize ends the idle sessions first, though no sweep is due by the clock', async () => {
    const h = await harness({ idleMs: 120_000, maxSessions: 1 });
    const first = await initialize(h);
    expect(first.status).toBe(200);
    // Requests in a live session take no slot of their own (only an initialize being answered does).
    expect(await listTools(h, first.id!)).toBe(200);
    expect(await listTools(h, first.id!)).toBe(200);
    expect((await initialize(h)).status).toBe(503);
    // A sweep just before the first session is idle: the next one is not due for another minute.
    h.clock.now = T0 + 119_999;
    await h.sessions.sweepIfDue();
    expect(h.sessions.size).toBe(1);
    expect((await initialize(h)).status).toBe(503);

    h.clock.now = T0 + 120_000;
    const second = await initialize(h);
    expect(second.status).toBe(200);
    expect(h.sessions.get(first.id!)).toBeUndefined();
    expect(h.sessions.get(second.id!)).toBeDefined();
  });

  it('ends a session whose initialize is answered after the sessions were closed (shutdown)', async () => {
    const h = await harness({});
    await h.sessions.close();
    const late = await fetch(h.url, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'late', version: '1.0.0' } },
      }),
    });
    await late.text().catch(() => undefined);
    const id = late.headers.get('mcp-session-id');
    expect(h.sessions.size).toBe(0);
    if (id !== null) expect(h.sessions.get(id)).toBeUndefined();
  });

  it('closing ends every session and the streams they have open', async () => {
    const h = await harness({});
    const { id } = await initialize(h);
    const response = await fetch(h.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': id!, 'mcp-protocol-version': '2025-06-18' },
    });
    expect(response.status).toBe(200);
    await waitFor(async () => h.sessions.get(id!)?.openRequests === 1);
    await h.sessions.close();
    expect(h.sessions.size).toBe(0);
    expect(h.sessions.get(id!)).toBeUndefined();
    // The stream ends (the server's shutdown does not wait on it).
    await response.text();
  });
});
