/** Resolves once `child` runs (at once when it already has a pid); rejects with its spawn error. */
export function whenSpawned(child: {
  pid?: number | undefined;
  once(event: 'spawn' | 'error', listener: (error: Error) => void): unknown;
}): Promise<void> {
  if (child.pid !== undefined) return Promise.resolve();
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', (error: Error) => reject(error));
  });
}
