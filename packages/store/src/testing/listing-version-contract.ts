import { describe, expect, it } from 'vitest';
import type { FileStore } from '../file-store.js';

/**
 * The behaviour of the optional `FileStore.listingVersion`, run by `describeFileStoreContract` for
 * stores that declare it (`listingVersion: true`). `store()` is the current test's store.
 */
export function describeListingVersionContract(store: () => FileStore): void {
  const version = (dir: string): Promise<string | undefined> => {
    const { listingVersion } = store();
    if (listingVersion === undefined) throw new Error('the store was declared to have listingVersion');
    return listingVersion.call(store(), dir);
  };

  describe('listingVersion', () => {
    it('is undefined for a missing directory, and the same token while nothing changes', async () => {
      expect(await version('lv0')).toBeUndefined();
      await store().write('lv0/a.json', '1');
      const first = await version('lv0');
      expect(typeof first).toBe('string');
      await store().read('lv0/a.json');
      await store().list('lv0');
      await store().exists('lv0/a.json');
      expect(await version('lv0')).toBe(first);
      expect(await version('lv0/')).toBe(first);
      expect(await version('lv0/a.json/nothing')).toBeUndefined();
    });

    it('changes when an entry directly in the directory is created, copied, removed or renamed over', async () => {
      await store().write('lv1/a.json', '1');
      const seen = new Set([await version('lv1')]);
      const expectNew = async (what: string): Promise<void> => {
        const token = await version('lv1');
        expect(seen.has(token), `the token after ${what} is new`).toBe(false);
        seen.add(token);
      };
      await store().write('lv1/b.json', '2');
      await expectNew('write of a new file');
      expect(await store().writeIfAbsent('lv1/c.json', '3')).toBe(true);
      await expectNew('writeIfAbsent');
      await store().copy('lv1/a.json', 'lv1/d.json');
      await expectNew('copy');
      await store().delete('lv1/b.json');
      await expectNew('delete');
      await store().write('lv1/sub/x.json', 'x');
      await expectNew('a new sub-directory');
      await store().delete('lv1/sub');
      await expectNew('removing the sub-directory');
    });

    it('does not change for writes inside an existing sub-directory', async () => {
      await store().write('lv2/.slots/00000.json', 'claim');
      await store().write('lv2/event.json', 'e');
      const before = await version('lv2');
      expect(await store().writeIfAbsent('lv2/.slots/00001.json', 'claim')).toBe(true);
      await store().write('lv2/.slots/name-index', 'index');
      await store().copy('lv2/event.json', 'lv2/.slots/copied');
      expect(await version('lv2')).toBe(before);
      expect(await version('lv2/.slots')).not.toBeUndefined();
    });

    it('rejects paths that escape the store with invalid_path', async () => {
      for (const path of ['../x', '/abs', 'a//b', 'a/../b', 'a\\b']) {
        const error = await version(path).then(
          () => undefined,
          (reason: unknown) => reason as { code?: string },
        );
        expect(error?.code, path).toBe('invalid_path');
      }
    });

    it('gives a directory removed and made again a token it never had', async () => {
      await store().write('lv3/a.json', '1');
      const first = await version('lv3');
      await store().delete('lv3');
      expect(await version('lv3')).toBeUndefined();
      await store().write('lv3/a.json', '1');
      expect(await version('lv3')).not.toBe(first);
    });
  });
}
