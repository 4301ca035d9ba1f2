import { StoreBackendError } from '../../src/errors/store-backend-error.js';
import type { FileStore } from '../../src/file-store.js';
import { createLocalFileStore } from '../../src/local-file-store.js';

/**
 * The local store (no fsync), counting the paths `fileSizes` is asked about (what a segment log's close checks),
 * and failing `writeRebuildable` for the paths `failing` names, with `detail` as the backend's message.
 */
export function instrumentedStore(
  root: string,
  failing: (path: string) => boolean = () => false,
  detail = 'disk full',
): { store: FileStore; sized: () => number } {
  const inner = createLocalFileStore({ root, durability: 'none' });
  let sized = 0;
  const store: FileStore = {
    ...inner,
    fileSizes: (paths) => {
      sized += paths.length;
      return inner.fileSizes!(paths);
    },
    writeRebuildable: async (files) => {
      const bad = files.find((file) => failing(file.path));
      if (bad !== undefined)
        throw new StoreBackendError({ operation: 'write', path: bad.path, location: root, detail });
      await inner.writeRebuildable!(files);
    },
  };
  return { store, sized: () => sized };
}

/** A logger that keeps what it is told to warn about. */
export function collectWarnings(): { warnings: string[]; logger: { warn(message: string): void } } {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message) => warnings.push(message) } };
}
