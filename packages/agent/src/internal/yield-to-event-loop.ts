/**
 * Resolves on a later turn of the event loop, after the timers, I/O callbacks and `setImmediate` work already
 * queued: a loop whose awaits all resolve as microtasks (a memory store, a model answering without I/O) calls
 * this between iterations so it never holds the thread for its whole length. `setImmediate` (Node, Bun, Deno) is
 * one macrotask with no clamping; elsewhere a `MessageChannel` message is the same without `setTimeout`'s ≥ 1 ms
 * (browsers clamp nested timeouts).
 */
export const yieldToEventLoop: () => Promise<void> =
  typeof globalThis.setImmediate === 'function'
    ? () => new Promise<void>((resolve) => setImmediate(resolve))
    : typeof globalThis.MessageChannel === 'function'
      ? () =>
          new Promise<void>((resolve) => {
            const { port1, port2 } = new MessageChannel();
            port1.addEventListener(
              'message',
              () => {
                port1.close();
                resolve();
              },
              { once: true },
            );
            // An `addEventListener` port receives nothing until started (unlike one given an `onmessage`).
            port1.start();
            port2.postMessage(undefined);
          })
      : () => new Promise<void>((resolve) => setTimeout(resolve, 0));
