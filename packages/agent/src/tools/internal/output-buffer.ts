/**
 * Collects a stream of text keeping only its first and last `limit` characters, so a command that prints
 * gigabytes costs O(limit) memory. `total` counts every character seen.
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  total = 0;

  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.limit) {
      const room = this.limit - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest === '') return;
    this.tail += rest;
    // Trim lazily so a stream of small chunks does not copy the tail on every push.
    if (this.tail.length > 2 * this.limit) this.tail = this.tail.slice(-this.limit);
  }

  /** The kept text and how many characters were dropped between head and tail. */
  snapshot(): { head: string; tail: string; dropped: number } {
    const tail = this.tail.length > this.limit ? this.tail.slice(-this.limit) : this.tail;
    return { head: this.head, tail, dropped: this.total - this.head.length - tail.length };
  }
}

/** The notice put where the middle of an over-long output was cut. */
export function truncationNotice(omitted: number): string {
  return `\n<response clipped: ${omitted} characters omitted from the middle of this output>\n`;
}

/**
 * Keeps the first and last halves of `text` when it is longer than `limit`; `alreadyDropped` characters that
 * never reached `text` are counted in the notice too.
 */
export function truncateMiddle(text: string, limit: number, alreadyDropped = 0): string {
  if (text.length <= limit && alreadyDropped === 0) return text;
  const keepHead = Math.ceil(Math.min(limit, text.length) / 2);
  const keepTail = Math.min(limit, text.length) - keepHead;
  const omitted = text.length - keepHead - keepTail + alreadyDropped;
  return text.slice(0, keepHead) + truncationNotice(omitted) + (keepTail > 0 ? text.slice(-keepTail) : '');
}
