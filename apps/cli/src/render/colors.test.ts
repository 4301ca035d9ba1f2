import { describe, expect, it } from 'vitest';
import { colorsEnabled } from './colors.js';

describe('colorsEnabled', () => {
  it('colors a terminal by default, but not a pipe or TERM=dumb', () => {
    expect(colorsEnabled({ flag: undefined, env: {}, isTTY: true })).toBe(true);
    expect(colorsEnabled({ flag: undefined, env: {}, isTTY: false })).toBe(false);
    expect(colorsEnabled({ flag: undefined, env: { TERM: 'dumb' }, isTTY: true })).toBe(false);
  });

  it('lets --no-color and NO_COLOR win over everything', () => {
    expect(colorsEnabled({ flag: false, env: { FORCE_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(colorsEnabled({ flag: true, env: { NO_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(colorsEnabled({ flag: undefined, env: { NO_COLOR: '' }, isTTY: true })).toBe(true);
  });

  it('forces colors with --color or FORCE_COLOR', () => {
    expect(colorsEnabled({ flag: true, env: {}, isTTY: false })).toBe(true);
    expect(colorsEnabled({ flag: undefined, env: { FORCE_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(colorsEnabled({ flag: undefined, env: { FORCE_COLOR: '0' }, isTTY: false })).toBe(false);
  });
});
