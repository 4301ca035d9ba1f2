import { type Dirent, type FSWatcher, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';

/** A conversation's directory name in the data directory (the id's 32 hex digits). */
const CONVERSATION_NAME = /^[0-9a-f]{32}$/i;

export interface DataDirWatchOptions {
  dataDir: string;
  /** Whether `path` holds a conversation yet (its directory is made before its first file). */
  isConversation: (path: string) => boolean;
  /** Called once for changes close together: the set of conversations in the data directory changed. */
  onChange: () => void;
  /** Where a watch that cannot be kept is reported (stderr). */
  warn: (message: string) => void;
}

/**
 * Watches `x mcp`'s data directory for conversations coming and going, whoever makes or deletes them (this process,
 * `x run`, another `x mcp`), so the MCP face can send `notifications/resources/list_changed`. One inotify watch on the
 * data directory (its own entries only, not the logs growing inside them); a directory that appears before its
 * conversation's first file is watched on its own until that file is there. What counts is the set of conversations
 * `rescan` finds, so an event that changes nothing (a temporary file, a status written) notifies nobody.
 */
export class DataDirWatch {
  readonly #options: DataDirWatchOptions;
  #known: Set<string>;
  #watcher: FSWatcher | undefined;
  /** Directories named like a conversation that hold none yet, each watched until it does. */
  readonly #forming = new Map<string, FSWatcher>();
  #stopped = false;
  #scheduled = false;

  constructor(options: DataDirWatchOptions) {
    this.#options = options;
    // Watched before the first look, so a conversation made in between is an event, not a gap.
    this.#watchDataDir();
    this.#known = this.#conversations();
  }

  /** Looks again now (after this process made a conversation: no need to wait for the event). */
  rescan(): void {
    if (this.#stopped) return;
    // The data directory may not have existed when the watch started: it does once a conversation was made.
    this.#watchDataDir();
    const now = this.#conversations();
    const changed = now.size !== this.#known.size || [...now].some((name) => !this.#known.has(name));
    this.#known = now;
    if (changed) this.#options.onChange();
  }

  stop(): void {
    this.#stopped = true;
    this.#watcher?.close();
    this.#watcher = undefined;
    for (const watcher of this.#forming.values()) watcher.close();
    this.#forming.clear();
  }

  /** Events come in bursts (a conversation's directory and its files): one rescan after the burst's turn. */
  #schedule(): void {
    if (this.#scheduled || this.#stopped) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.rescan();
    });
  }

  #watchDataDir(): void {
    if (this.#watcher !== undefined) return;
    try {
      this.#watcher = watch(this.#options.dataDir, { persistent: false }, () => this.#schedule());
    } catch (error) {
      // Not there yet (nothing made so far): `rescan` after the first conversation tries again.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      this.#options.warn(`cannot watch ${this.#options.dataDir} for new conversations: ${(error as Error).message}`);
      return;
    }
    this.#watcher.on('error', (error) => {
      this.#watcher?.close();
      this.#watcher = undefined;
      if (!this.#stopped) this.#options.warn(`stopped watching ${this.#options.dataDir}: ${error.message}`);
    });
  }

  /** The conversations in the data directory now; starts or ends the watches of forming ones. */
  #conversations(): Set<string> {
    const { dataDir, isConversation } = this.#options;
    const found = new Set<string>();
    const forming = new Set<string>();
    let names: string[] = [];
    try {
      names = readdirSync(dataDir, { withFileTypes: true })
        .filter((entry: Dirent) => entry.isDirectory() && CONVERSATION_NAME.test(entry.name))
        .map((entry) => entry.name);
    } catch {
      // No data directory: no conversations.
    }
    for (const name of names) {
      if (isConversation(join(dataDir, name))) found.add(name.toLowerCase());
      else forming.add(name);
    }
    for (const [name, watcher] of this.#forming) {
      if (forming.has(name)) continue;
      watcher.close();
      this.#forming.delete(name);
    }
    if (!this.#stopped) for (const name of forming) if (!this.#forming.has(name)) this.#watchForming(name);
    return found;
  }

  #watchForming(name: string): void {
    const path = join(this.#options.dataDir, name);
    try {
      const watcher = watch(path, { persistent: false }, () => this.#schedule());
      watcher.on('error', () => {
        watcher.close();
        this.#forming.delete(name);
      });
      this.#forming.set(name, watcher);
    } catch {
      // Gone already (or not a directory): the data directory's own watch sees what became of it.
      return;
    }
    // Its first file may have come between the look that found it forming and the watch: no event tells of that one.
    if (this.#options.isConversation(path)) this.#schedule();
  }
}
