import { describe, expect, it } from 'vitest';
import { joinLines } from './file-contents.js';
import { configEnvironment, filterOverrides } from './git-hardening.js';

describe('filterOverrides', () => {
  it('switches off every filter driver with a program, whatever its name holds', () => {
    const list = [
      'core.bare\nfalse',
      'filter.lfs.clean\ngit-lfs clean -- %f',
      'filter.lfs.smudge\ngit-lfs smudge -- %f',
      'filter.a=b.c.process\n/evil',
      'filter.only.required\ntrue',
      'diff.x.textconv\n/evil',
      '',
    ].join('\0');
    expect(filterOverrides(list)).toEqual([
      ['filter.lfs.clean', ''],
      ['filter.lfs.smudge', ''],
      ['filter.lfs.process', ''],
      ['filter.lfs.required', 'false'],
      ['filter.a=b.c.clean', ''],
      ['filter.a=b.c.smudge', ''],
      ['filter.a=b.c.process', ''],
      ['filter.a=b.c.required', 'false'],
    ]);
    expect(filterOverrides('')).toEqual([]);
  });

  it('passes settings as GIT_CONFIG_COUNT pairs', () => {
    expect(configEnvironment([['filter.x.clean', '']])).toEqual({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'filter.x.clean',
      GIT_CONFIG_VALUE_0: '',
    });
    expect(configEnvironment([])).toEqual({ GIT_CONFIG_COUNT: '0' });
  });
});

describe('joinLines', () => {
  it("normalises line breaks and drops the last one, as Python's splitlines and join", () => {
    expect(joinLines('a\r\nb\rc\n')).toBe('a\nb\nc');
    expect(joinLines('a\n\n')).toBe('a\n');
    expect(joinLines('no break')).toBe('no break');
    expect(joinLines('')).toBe('');
  });
});
