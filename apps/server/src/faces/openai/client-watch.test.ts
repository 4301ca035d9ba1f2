import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientLeft } from './client-watch.js';

/** A real response on a real (unconnected) socket, as Node's HTTP server pairs them. */
function responseOnSocket(): { response: ServerResponse; socket: Socket } {
  const socket = new Socket();
  const response = new ServerResponse(new IncomingMessage(socket));
  response.assignSocket(socket);
  return { response, socket };
}

describe('clientLeft', () => {
  it('is false while the connection is open', () => {
    const { response, socket } = responseOnSocket();
    expect(clientLeft(response)).toBe(false);
    socket.destroy();
  });

  it('is true as soon as the socket is destroyed, before the response hears of it on its close event', () => {
    const { response, socket } = responseOnSocket();
    socket.destroy();
    // The response learns of the close only on a later tick: a run ending in between must still see the client gone.
    expect(response.destroyed).toBe(false);
    expect(clientLeft(response)).toBe(true);
  });

  it('is true once the response itself is destroyed', () => {
    const { response } = responseOnSocket();
    response.destroy();
    expect(clientLeft(response)).toBe(true);
  });
});
