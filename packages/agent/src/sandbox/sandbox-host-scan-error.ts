import { AgentError } from '../errors.js';

/**
 * A directory of the host the sandbox scans for private files (`/etc`) holds more entries than the scan looks at.
 * The sandbox is not built: a private file past the limit would stay readable inside, and no limit is safe to
 * ignore. A stock `/etc` holds one or two thousand entries.
 */
export class SandboxHostScanError extends AgentError {
  /** The directory scanned. */
  readonly root: string;
  /** The most entries looked at. */
  readonly limit: number;

  constructor(root: string, limit: number) {
    super(
      'sandbox_host_scan_limit',
      `${root} holds more than ${limit} entries, the most the sandbox scans for the private files it must hide ` +
        '(files others may not read, directories they may not enter); no sandbox is built rather than leave the ' +
        `rest unscanned and readable inside. Remove what does not belong in ${root} (a large tree kept there), or ` +
        "opt out explicitly with a sandbox policy of `mode: 'unsandboxed'`.",
    );
    this.root = root;
    this.limit = limit;
  }
}
