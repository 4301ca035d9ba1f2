import { ServerError } from '../errors.js';

/** The data directory or the workspace root lies in a system directory every sandbox mounts (start-up refuses). */
export class SystemDirectoryExposedError extends ServerError {
  declare readonly code: 'system_directory_exposed';
  /** What lies there: `data directory` or `workspace root`. */
  readonly what: string;
  readonly path: string;
  readonly systemDirectory: string;

  constructor(options: { what: string; path: string; systemDirectory: string }) {
    super(
      'system_directory_exposed',
      `Refusing to start: the ${options.what} ${options.path} lies in ${options.systemDirectory}, which every ` +
        'sandbox mounts read-only (its programs and libraries), so every command of every conversation could read ' +
        `it: ${options.what === 'data directory' ? "every conversation's events, secrets and the server's keys" : "every other conversation's workspace"}. ` +
        `Choose a ${options.what === 'data directory' ? 'data directory (--data-dir)' : 'workspace root (--workspace-root)'} outside ${options.systemDirectory}, or run the server unsandboxed (--unsandboxed) knowingly.`,
    );
    this.what = options.what;
    this.path = options.path;
    this.systemDirectory = options.systemDirectory;
  }
}
