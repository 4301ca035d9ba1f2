import { StoreError } from '../errors.js';

/**
 * `EventLog.open` was asked for the segment layout on a store that cannot append to a file (S3), or met a segment
 * log on a Node without `zlib.crc32` (before 20.15), which its records' checksums need.
 */
export class UnsupportedLayoutError extends StoreError {
  declare readonly code: 'unsupported_layout';
  readonly layout: string;

  constructor(options: { layout: string; location: string; reason?: string }) {
    super(
      'unsupported_layout',
      `The event log at ${options.location} cannot use the '${options.layout}' layout: ${options.reason ?? 'its store cannot append to a file (FileStore.openAppendFile); use the local or memory store, or the default layout'}`,
    );
    this.layout = options.layout;
  }
}
