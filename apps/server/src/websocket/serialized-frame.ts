import { type AnyEvent, serializeEvent } from '@x/events';

/**
 * Events are deep-frozen and the log's cache hands every subscriber the same object, so the JSON of
 * an event is computed once however many sockets send it.
 */
const frames = new WeakMap<AnyEvent, string>();

export function serializedFrame(event: AnyEvent): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    frame = serializeEvent(event);
    frames.set(event, frame);
  }
  return frame;
}
