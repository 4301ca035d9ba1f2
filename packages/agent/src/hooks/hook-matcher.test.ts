import { describe, expect, it } from 'vitest';
import { hookMatcherMatches } from './hook-matcher.js';

describe('hookMatcherMatches', () => {
  it('matches every tool, and events without one, with * or an empty matcher', () => {
    for (const matcher of ['*', '']) {
      expect(hookMatcherMatches(matcher, 'terminal')).toBe(true);
      expect(hookMatcherMatches(matcher, undefined)).toBe(true);
    }
  });

  it('matches a plain name exactly, never a prefix or an extension of it', () => {
    expect(hookMatcherMatches('terminal', 'terminal')).toBe(true);
    expect(hookMatcherMatches('terminal', 'terminal_extra')).toBe(false);
    expect(hookMatcherMatches('terminal_extra', 'terminal')).toBe(false);
    expect(hookMatcherMatches('term', 'terminal')).toBe(false);
    expect(hookMatcherMatches('terminal', undefined)).toBe(false);
  });

  it('takes /pattern/ and names with regex characters as whole-name regular expressions', () => {
    expect(hookMatcherMatches('/file_.*/', 'file_editor')).toBe(true);
    expect(hookMatcherMatches('/editor/', 'file_editor')).toBe(false);
    expect(hookMatcherMatches('terminal|file_editor', 'file_editor')).toBe(true);
    expect(hookMatcherMatches('terminal|file_editor', 'file_editor_2')).toBe(false);
    // Does not compile: compared as a name.
    expect(hookMatcherMatches('bad(', 'bad(')).toBe(true);
    expect(hookMatcherMatches('bad(', 'bad')).toBe(false);
  });
});
