import { describe, expect, it } from 'vitest';
import { hookMatcherMatches } from './hook-matcher.js';

// Each expectation is what the reference's `HookMatcher.matches` (Python `re.fullmatch`) answers for the
// same matcher and tool name.

describe('hookMatcherMatches: events without a tool', () => {
  it('are matched only by * or an empty matcher, never by a regular expression that matches anything', () => {
    expect(hookMatcherMatches('.*', undefined)).toBe(false);
    expect(hookMatcherMatches('/.*/', undefined)).toBe(false);
    expect(hookMatcherMatches('/undefined/', undefined)).toBe(false);
  });
});

describe('hookMatcherMatches: /pattern/', () => {
  it('takes the shortest /x/ as a regular expression', () => {
    expect(hookMatcherMatches('/x/', 'x')).toBe(true);
    expect(hookMatcherMatches('/./', 'x')).toBe(true);
  });

  it('takes a bare // as a name, not as an empty regular expression', () => {
    expect(hookMatcherMatches('//', '')).toBe(false);
    expect(hookMatcherMatches('//', '//')).toBe(true);
  });

  it('needs the slash at both ends: a name ending (or starting) with one is compared as it is', () => {
    expect(hookMatcherMatches('terminal/', 'terminal/')).toBe(true);
    expect(hookMatcherMatches('terminal/', 'erminal')).toBe(false);
    expect(hookMatcherMatches('/terminal', '/terminal')).toBe(true);
    expect(hookMatcherMatches('/terminal', 'terminal')).toBe(false);
  });

  it('matches nothing when the pattern does not compile (not even its own text)', () => {
    expect(hookMatcherMatches('/bad(/', 'bad(')).toBe(false);
    expect(hookMatcherMatches('/bad(/', '/bad(/')).toBe(false);
  });
});

describe('hookMatcherMatches: Python regular expression syntax', () => {
  it('accepts escaped punctuation that Python accepts', () => {
    expect(hookMatcherMatches('file\\_editor', 'file_editor')).toBe(true);
    expect(hookMatcherMatches('/mcp\\-fetch/', 'mcp-fetch')).toBe(true);
    expect(hookMatcherMatches('/mcp\\-fetch/', 'mcp_fetch')).toBe(false);
  });

  it('reads leading inline flags such as (?i)', () => {
    expect(hookMatcherMatches('(?i)terminal', 'Terminal')).toBe(true);
    expect(hookMatcherMatches('/(?i)file_.*/', 'FILE_EDITOR')).toBe(true);
    expect(hookMatcherMatches('(?i)terminal', 'terminal_2')).toBe(false);
    expect(hookMatcherMatches('(?s)a.b', 'a\nb')).toBe(true);
    expect(hookMatcherMatches('a.b', 'a\nb')).toBe(false);
  });

  it('combines inline flags, repeated ones included, and takes (?a), (?m) and (?u) as no change to a name', () => {
    expect(hookMatcherMatches('(?is)a.b', 'A\nB')).toBe(true);
    expect(hookMatcherMatches('(?ii)terminal', 'TERMINAL')).toBe(true);
    for (const flag of ['a', 'm', 'u']) {
      expect(hookMatcherMatches(`(?${flag})terminal`, 'terminal')).toBe(true);
      expect(hookMatcherMatches(`(?${flag})terminal`, 'Terminal')).toBe(false);
    }
  });

  it('keeps flags it cannot honour from matching anything a name would not', () => {
    // Python refuses (?L) on text patterns: the explicit form matches nothing, the bare one only itself.
    expect(hookMatcherMatches('/(?L)terminal/', 'terminal')).toBe(false);
    expect(hookMatcherMatches('(?L)terminal', 'terminal')).toBe(false);
  });
});
