import { ServerError } from '../errors.js';

/** Refusal to start with the data directory inside the workspace root, or the root inside the conversation store. */
export class DataDirExposedError extends ServerError {
  declare readonly code: 'data_dir_exposed';
  readonly dataDir: string;
  readonly workspaceRoot: string;

  constructor(options: { dataDir: string; workspaceRoot: string; how: string }) {
    super(
      'data_dir_exposed',
      `Refusing to start: the workspace root ${options.workspaceRoot} ${options.how} the data directory ` +
        `${options.dataDir}. Every path in the root is reachable by the file routes and by a conversation's ` +
        "sandbox (a working directory may be the root itself), so every conversation's events, secrets and sandbox " +
        'policy would be readable and writable there. Choose a data directory (--data-dir) outside the workspace ' +
        'root, or a workspace root (--workspace-root) outside it.',
    );
    this.dataDir = options.dataDir;
    this.workspaceRoot = options.workspaceRoot;
  }
}
