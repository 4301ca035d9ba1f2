import type { FileStore } from '@x/store';

/**
 * The file of the generation after the newest one of file-store lease `key` (under `dir`, the leases' default
 * `.leases`): what a takeover behind the holder's back creates. An idle instance of a shared conversation takes the
 * lease for its state writes (its creation's and its messages' checkpoints), so a run's generation is not always 1.
 */
export async function nextGenerationFile(store: FileStore, key: string, dir = '.leases'): Promise<string> {
  const generations = (await store.list(`${dir}/${key}`)).map((path) =>
    Number(/gen-(\d+)\.json$/.exec(path)?.[1] ?? 0),
  );
  const next = Math.max(0, ...generations) + 1;
  return `${dir}/${key}/gen-${String(next).padStart(10, '0')}.json`;
}
