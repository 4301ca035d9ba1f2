/** Node's names for a file system request in flight among `process.getActiveResourcesInfo()` (a file handle's close is a `CloseReq`). */
const FILE_SYSTEM_REQUEST = /^(FSReq|CloseReq|FileHandleCloseReq)/;

/**
 * Resolves once this process has no file system request in flight on two event loop turns in a row: whatever a finished request resumed ran on to its next request or
 * its next wait. Tests that drive a manual clock call it before moving time, so a slow disk never looks like a
 * holder that stopped renewing. Waits a real millisecond between looks while requests are out (no busy spin).
 */
export async function fileSystemQuiet(): Promise<void> {
  let quietLooks = 0;
  while (quietLooks < 2) {
    const busy = process.getActiveResourcesInfo().some((resource) => FILE_SYSTEM_REQUEST.test(resource));
    quietLooks = busy ? 0 : quietLooks + 1;
    await new Promise((resolve) => (busy ? setTimeout(resolve, 1) : setImmediate(resolve)));
  }
}
