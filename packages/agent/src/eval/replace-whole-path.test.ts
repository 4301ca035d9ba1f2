import { describe, expect, it } from 'vitest';
import { replaceWholePath } from './replace-whole-path.js';

describe('replaceWholePath', () => {
  it('replaces the path followed by a slash, a non-path character or the end', () => {
    expect(replaceWholePath('cat /tmp/ws/a.ts', '/tmp/ws', '<workspace>')).toBe('cat <workspace>/a.ts');
    expect(replaceWholePath("cd '/tmp/ws' && ls /tmp/ws", '/tmp/ws', '<w>')).toBe("cd '<w>' && ls <w>");
    expect(replaceWholePath('in /tmp/ws.\nThen', '/tmp/ws', '<w>')).toBe('in <w>.\nThen');
    expect(replaceWholePath('"/tmp/ws":1', '/tmp/ws', '<w>')).toBe('"<w>":1');
  });

  it('leaves a longer name that begins with the path: another directory or file', () => {
    expect(replaceWholePath('/tmp/ws2/a.ts and /tmp/ws/b.ts', '/tmp/ws', '<w>')).toBe('/tmp/ws2/a.ts and <w>/b.ts');
    expect(replaceWholePath('/tmp/ws-old /tmp/ws_x /tmp/ws.bak', '/tmp/ws', '<w>')).toBe(
      '/tmp/ws-old /tmp/ws_x /tmp/ws.bak',
    );
  });

  it('keeps text without the path, and an empty path replaces nothing', () => {
    expect(replaceWholePath('nothing here', '/tmp/ws', '<w>')).toBe('nothing here');
    expect(replaceWholePath('abc', '', '<w>')).toBe('abc');
    expect(replaceWholePath('$& /tmp/ws', '/tmp/ws', '$&')).toBe('$& $&');
  });
});
