/**
 * The answer up to the first of the request's `stop` sequences it holds, the sequence left out (as OpenAI ends a
 * completion that generated one, with `finish_reason: 'stop'`); the whole answer when it holds none. The agent's final
 * answer is known whole when its run ends, so a streamed answer is cut the same way.
 */
export function cutAtFirstStop(content: string, stop: string | readonly string[] | null | undefined): string {
  const sequences = typeof stop === 'string' ? [stop] : (stop ?? []);
  let end = content.length;
  for (const sequence of sequences) {
    const at = content.indexOf(sequence);
    if (at >= 0 && at < end) end = at;
  }
  return content.slice(0, end);
}
