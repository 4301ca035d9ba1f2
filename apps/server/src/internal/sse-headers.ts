/**
 * The headers every streamed face answers with: server-sent events that no proxy may buffer or transform (nginx
 * honours `x-accel-buffering`), on a connection kept open for the stream.
 */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;
