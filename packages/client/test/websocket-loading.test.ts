import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Node 20 has no global WebSocket: the client imports the optional peer `ws` on first use.
// Node 22+ has a global WebSocket: it is taken away here, so every Node line runs what Node 20 does.
const globals = globalThis as { WebSocket?: unknown };
const platformWebSocket = globals.WebSocket;

describe('the WebSocket on Node without a global one', () => {
  beforeEach(() => {
    delete globals.WebSocket;
  });
  afterEach(() => {
    if (platformWebSocket !== undefined) globals.WebSocket = platformWebSocket;
    vi.doUnmock('ws');
    vi.resetModules();
  });

  it('streams through ws, imported on first use', async () => {
    const { loadEventSocket } = await import('../src/internal/event-socket.js');
    await expect(loadEventSocket()).resolves.toBeTypeOf('function');
  });

  it('fails with WebSocketUnavailableError naming ws when it is not installed', async () => {
    vi.resetModules();
    vi.doMock('ws', () => {
      throw new Error("Cannot find package 'ws'");
    });
    const { streamConversationEvents, WebSocketUnavailableError } = await import('../src/index.js');
    const stream = streamConversationEvents('http://127.0.0.1:9', 'c0ffee00-0000-4000-8000-000000000000', {
      fromIndex: 0,
      onEvent: () => undefined,
    });
    const error = await stream.done.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(WebSocketUnavailableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('npm install ws');
    await expect(stream.ready).rejects.toBe(error);
  });

  it('tries ws again on the next use after it could not be loaded', async () => {
    vi.resetModules();
    vi.doMock('ws', () => {
      throw new Error("Cannot find package 'ws'");
    });
    const { loadEventSocket } = await import('../src/internal/event-socket.js');
    const { WebSocketUnavailableError } = await import('../src/index.js');
    const error = await loadEventSocket().catch((caught: unknown) => caught);
    expect(WebSocketUnavailableError.isInstance(error)).toBe(true);
    // Installed meanwhile: the failure was not kept.
    vi.doUnmock('ws');
    const open = await loadEventSocket();
    expect(open).toBeTypeOf('function');
    expect(open.readsUpgradeHeaders).toBe(true);
  });
});
