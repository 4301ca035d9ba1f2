// McpSessions' background sweeper, for a server no request reaches: its interval (as short as the idle limit) ends
// the idle sessions by itself, it never keeps the process alive, and closing the sessions stops it. Only
// setInterval/clearInterval are faked (and the idle clock injected); the sessions are driven over real HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManagerHost } from '../../src/faces/mcp/manager-host.js';
import { McpSessions } from '../../src/faces/mcp/mcp-sessions.js';
import { waitFor } from '../helpers.js';
import { recordingLogger, startInProcessManager } from '../support/in-process-manager.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const step of cleanups.splice(0).reverse()) await step();
});

async function sessionsOverHttp(
  idleMs: number,
  clock: { now: number },
): Promise<{ sessions: McpSessions; url: string }> {
  const inProcess = await startInProcessManager();
  cleanups.push(() => inProcess.stop());
  const host = createManagerHost(inProcess.manager, {
    listing: inProcess.listing,
    logger: recordingLogger().logger,
  });
  const sessions = new McpSessions(host, { name: 'x', version: '0.0.0' }, { idleMs, now: () => clock.now });
  const http: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
      await sessions.handle(await sessions.open(), request, response, body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    await sessions.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return { sessions, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/` };
}

async function initialize(url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'timer', version: '1.0.0' } },
    }),
  });
  await response.text();
  return response.headers.get('mcp-session-id') ?? '';
}

describe("McpSessions' background sweeper", () => {
  it('ends an idle session when its interval fires, with no request coming in', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = { now: 1_000_000 };
    const { sessions, url } = await sessionsOverHttp(2000, clock);
    const id = await initialize(url);
    await waitFor(async () => sessions.get(id)?.openRequests === 0);
    clock.now += 2000;
    vi.advanceTimersByTime(1999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sessions.get(id)).toBeDefined();
    vi.advanceTimersByTime(1);
    await waitFor(async () => sessions.get(id) === undefined);
    expect(sessions.size).toBe(0);
  });

  it('never holds the process open, and stops when the sessions are closed', async () => {
    const intervals = vi.spyOn(globalThis, 'setInterval');
    const cleared = vi.spyOn(globalThis, 'clearInterval');
    const { sessions } = await sessionsOverHttp(90_000, { now: 0 });
    const timer = intervals.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(intervals.mock.calls.at(-1)?.[1]).toBe(60_000);
    expect(timer.hasRef()).toBe(false);
    await sessions.close();
    expect(cleared).toHaveBeenCalledWith(timer);
  });
});
