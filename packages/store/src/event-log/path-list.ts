import { StoreInvariantError } from '../errors/store-invariant-error.js';

/**
 * The store path of each event file, by index (`EventLog`'s index of its log). Paths taken from a name
 * index are kept as that file's text and the offset of each name in it, and made into a string only when
 * one is asked for: opening a 100k-event log from its index allocates no string per event (a resume
 * touches a few hundred), which spares the young generation 100k+ objects to copy and promote.
 */
export class PathList {
  #prefix = '';
  #text = '';
  /** Name i of the adopted part is `#text[starts[i], starts[i + 1] - 1)` (each name ends with a newline). */
  #starts: Int32Array = new Int32Array(1);
  #adopted = 0;
  /** Paths pushed one by one, after the adopted ones. */
  readonly #pushed: string[] = [];

  get length(): number {
    return this.#adopted + this.#pushed.length;
  }

  /** The path at `index` (0 ≤ index < length), or undefined outside. */
  at(index: number): string | undefined {
    if (index < this.#adopted) {
      if (index < 0) return undefined;
      return this.#prefix + this.#text.slice(this.#starts[index]!, this.#starts[index + 1]! - 1);
    }
    return this.#pushed[index - this.#adopted];
  }

  /**
   * The file name (the path after its last `/`) at `index` (0 ≤ index < length). An adopted name is cut
   * straight out of the index's text: no path is joined and flattened again to be cut (the packed read cache
   * checks 1,024 names per pack).
   */
  nameAt(index: number): string | undefined {
    if (index >= 0 && index < this.#adopted && this.#prefix.endsWith('/')) {
      const name = this.#text.slice(this.#starts[index]!, this.#starts[index + 1]! - 1);
      if (!name.includes('/')) return name;
    }
    const path = this.at(index);
    return path?.slice(path.lastIndexOf('/') + 1);
  }

  push(path: string): void {
    this.#pushed.push(path);
  }

  /**
   * Takes `count` names from `text` (see `#starts`) as the first paths, `prefix` + name each. Only on an
   * empty list (an opening log).
   */
  adopt(prefix: string, text: string, starts: Int32Array, count: number): void {
    if (this.length !== 0) {
      // Only an opening log adopts its index: names adopted over paths it holds would shift every index after them.
      throw new StoreInvariantError(
        `the paths of ${JSON.stringify(prefix)} were adopted from an index into a list that already holds ${this.length}`,
      );
    }
    this.#prefix = prefix;
    this.#text = text;
    this.#starts = starts;
    this.#adopted = count;
  }

  /** Names (the paths without `prefix`) of indices 0..count-1, each followed by a newline: a name index's body. */
  namesText(prefix: string, count: number): string {
    const adopted = Math.min(count, this.#adopted);
    const head =
      adopted === 0 || prefix !== this.#prefix ? '' : this.#text.slice(this.#starts[0]!, this.#starts[adopted]!);
    const names: string[] = [];
    for (let index = head === '' ? 0 : adopted; index < count; index++)
      names.push(this.at(index)!.slice(prefix.length));
    return names.length === 0 ? head : `${head}${names.join('\n')}\n`;
  }
}
