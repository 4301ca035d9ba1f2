// The mount table as the sandbox reads it: mount points of a real mountinfo text, their escapes, and which lie
// below the paths a policy mounts.
import { describe, expect, it } from 'vitest';
import { mountPointsBelow, parseMountPoints } from './mounts-below.js';

const MOUNTINFO = [
  '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
  '96 22 254:0 /srv/store /srv/ws/data rw,relatime - ext4 /dev/vda rw',
  '97 22 254:0 /tmp /srv/ws/my\\040volume rw,relatime - ext4 /dev/vda rw',
  '98 22 0:50 / /srv/ws-other rw - tmpfs tmpfs rw',
  '99 96 0:51 / /srv/ws/data/inner rw - tmpfs tmpfs rw',
  '100 22 0:52 / /srv/ws/back\\134slash rw - tmpfs tmpfs rw',
  '',
].join('\n');

describe('parseMountPoints', () => {
  it("reads each line's fifth field, undoing mountinfo's octal escapes", () => {
    expect(parseMountPoints(MOUNTINFO)).toEqual([
      '/',
      '/srv/ws/data',
      '/srv/ws/my volume',
      '/srv/ws-other',
      '/srv/ws/data/inner',
      '/srv/ws/back\\slash',
    ]);
  });
});

describe('mountPointsBelow', () => {
  it('finds the mounts strictly below a root, nested ones included, not a sibling sharing its prefix', () => {
    expect(mountPointsBelow(['/srv/ws'], MOUNTINFO)).toEqual([
      '/srv/ws/data',
      '/srv/ws/my volume',
      '/srv/ws/data/inner',
      '/srv/ws/back\\slash',
    ]);
  });

  it('does not count a root that is itself a mount point as below it', () => {
    expect(mountPointsBelow(['/srv/ws/data'], MOUNTINFO)).toEqual(['/srv/ws/data/inner']);
    expect(mountPointsBelow(['/srv/ws-other'], MOUNTINFO)).toEqual([]);
  });

  it('counts every mount but / itself below /', () => {
    expect(mountPointsBelow(['/'], MOUNTINFO)).toHaveLength(5);
  });

  it("reads this process's own table when given none", () => {
    expect(mountPointsBelow(['/'])).toEqual(expect.arrayContaining(['/proc']));
  });
});
