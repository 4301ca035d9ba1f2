// A path reached through a bind mount of a directory inside another, by the mount table's source of each mount.
import { describe, expect, it } from 'vitest';
import { respelledByMountSource } from './mount-source.js';

const MOUNTINFO = [
  '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
  '30 22 0:40 / /srv rw - tmpfs tmpfs rw',
  '31 30 0:40 /store/conversation-2 /srv/ws/peek rw - tmpfs tmpfs rw',
  '32 30 0:41 /store/conversation-2 /srv/ws/other-device rw - tmpfs tmpfs rw',
  '33 30 0:40 /store-old /srv/ws/prefix rw - tmpfs tmpfs rw',
  '34 30 0:40 /store/with\\040space /srv/ws/spaced rw - tmpfs tmpfs rw',
  '35 30 0:40 / /srv/ws/covered rw - tmpfs tmpfs rw',
  '36 30 0:40 /elsewhere /srv/ws/covered rw - tmpfs tmpfs rw',
  '',
].join('\n');

describe('respelledByMountSource', () => {
  it('spells a bind of a directory inside the store, and paths inside it, from the store', () => {
    expect(respelledByMountSource('/srv/ws/peek', '/srv/store', MOUNTINFO)).toBe('/srv/store/conversation-2');
    expect(respelledByMountSource('/srv/ws/peek/events/1.json', '/srv/store', MOUNTINFO)).toBe(
      '/srv/store/conversation-2/events/1.json',
    );
    expect(respelledByMountSource('/srv/ws/spaced', '/srv/store', MOUNTINFO)).toBe('/srv/store/with space');
  });

  it('leaves a mount of another filesystem, of a sibling sharing a prefix, and a covered mount alone', () => {
    expect(respelledByMountSource('/srv/ws/other-device', '/srv/store', MOUNTINFO)).toBeUndefined();
    expect(respelledByMountSource('/srv/ws/prefix', '/srv/store', MOUNTINFO)).toBeUndefined();
    // The later mount at /srv/ws/covered (showing /elsewhere) hides the earlier one (showing the filesystem's root).
    expect(respelledByMountSource('/srv/ws/covered/store', '/srv/store', MOUNTINFO)).toBeUndefined();
    expect(respelledByMountSource('/srv/ws', '/srv/store', MOUNTINFO)).toBeUndefined();
  });

  it('finds nothing where the table cannot be read', () => {
    expect(respelledByMountSource('/srv/ws/peek', '/srv/store', '')).toBeUndefined();
  });
});
