import { createEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeSocketServer, startFakeSocketServer } from '../support/fake-event-socket-host.js';
import { connectRecording } from '../support/socket-client.js';

// The two hard limits of an event socket: a queue past `bufferHardCapBytes` is closed with 4008 at once (not
// after the slow-client grace, which is made far longer than the test here), and a client frame over 16 MiB is
// refused by `ws` with 1009 instead of being buffered, while one of exactly 16 MiB is read.

const MiB = 1024 * 1024;

let server: FakeSocketServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function bigMessage(index: number, bytes: number) {
  return createEvent('MessageEvent', {
    source: 'agent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text: `${index} ${'x'.repeat(bytes)}` }] },
  });
}

describe('event sockets: hard limits', () => {
  it('closes a stalled client with 4008 as soon as its queue passes the hard cap', async () => {
    server = await startFakeSocketServer({
      options: {
        bufferLimitBytes: 64 * 1024,
        bufferHardCapBytes: 256 * 1024,
        slowClientGraceMs: 3_600_000,
        closeTimeoutMs: 20_000,
      },
    });
    const conversation = await server.addConversation('c1');
    const stalled = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await stalled.waitFor((frames) => frames.length === 1);
    stalled.tcp()?.pause();
    const logs = server.logs;
    const closedOverCap = () =>
      logs.some((record) => record.level === 'warn' && String(record.args[1]).includes('over the hard cap'));
    // Each event is a frame bigger than the hard cap: once the kernel buffers are full, the next one queued in
    // the process is over it. 64 MiB in all is far more than loopback's socket buffers hold.
    for (let index = 0; index < 128 && !closedOverCap(); index++) {
      await conversation.log.append(bigMessage(index, MiB / 2));
      // Lets the session pull and send the event before the next one is appended.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(closedOverCap()).toBe(true);
    stalled.tcp()?.resume();
    expect(await stalled.closed).toEqual({ code: 4008, reason: 'Client too slow' });
  });

  it('refuses a client frame over 16 MiB with 1009 and reads one of 16 MiB', async () => {
    server = await startFakeSocketServer({});
    await server.addConversation('c1');
    const fits = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await fits.waitFor((frames) => frames.length === 1);
    // Not a valid client frame: the server reads it whole and answers with a ServerErrorEvent.
    fits.send('x'.repeat(16 * MiB));
    await fits.waitFor((frames) => frames.some((frame) => frame.kind === 'ServerErrorEvent'), 60_000);
    fits.ws.close();

    const tooBig = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await tooBig.waitFor((frames) => frames.length === 1);
    tooBig.send('x'.repeat(16 * MiB + 1));
    expect((await tooBig.closed).code).toBe(1009);
    expect(tooBig.frames.some((frame) => frame.kind === 'ServerErrorEvent')).toBe(false);
  });
});
