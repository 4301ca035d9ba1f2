import { InvalidRecallError } from './invalid-recall-error.js';
import type { RecallParameters, RecallRequest } from './recall-parameters.js';

/** The one mode a recall asks for; anything ambiguous or inverted is an `InvalidRecallError` naming it. */
export function recallRequestFrom(args: RecallParameters): RecallRequest {
  const modes = [
    args.event_ids === undefined ? undefined : 'event_ids',
    args.start_index === undefined && args.end_index === undefined ? undefined : 'start_index/end_index',
    args.query === undefined ? undefined : 'query',
  ].filter((mode) => mode !== undefined);
  if (modes.length !== 1) {
    const given = modes.length === 0 ? 'none was given' : `got ${modes.join(' and ')}`;
    throw new InvalidRecallError(
      `recall needs exactly one of event_ids, start_index (optionally with end_index) or query; ${given}.`,
    );
  }
  if (args.event_ids !== undefined) return { mode: 'ids', ids: [...new Set(args.event_ids)] };
  if (args.query !== undefined) {
    const words = args.query
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => word !== '');
    if (words.length === 0)
      throw new InvalidRecallError('recall query is blank: give at least one word to search for.');
    return { mode: 'query', words, includeVisible: args.include_visible ?? false };
  }
  if (args.start_index === undefined) {
    throw new InvalidRecallError(`recall end_index ${args.end_index} needs a start_index.`);
  }
  if (args.end_index !== undefined && args.end_index < args.start_index) {
    throw new InvalidRecallError(
      `recall end_index ${args.end_index} is before start_index ${args.start_index}: the range is inclusive, oldest first.`,
    );
  }
  return { mode: 'range', start: args.start_index, end: args.end_index };
}
