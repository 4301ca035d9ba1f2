// What the running command receives for an `is_input` action: the bytes a terminal sends for a key, or the signal it
// raises for C-c and C-\ (the shell reads a pipe, where nothing turns ^C into SIGINT).
import { describe, expect, it } from 'vitest';
import { isControlKey, terminalInput } from './terminal-keys.js';

describe('terminalInput', () => {
  it('raises SIGINT for C-c and SIGQUIT for C-\\, in either case and with spaces around', () => {
    expect(terminalInput('C-c')).toEqual({ kind: 'signal', signal: 'SIGINT' });
    expect(terminalInput(' c-C\n')).toEqual({ kind: 'signal', signal: 'SIGINT' });
    expect(terminalInput('C-\\')).toEqual({ kind: 'signal', signal: 'SIGQUIT' });
  });

  it("writes a named key as a terminal's bytes", () => {
    const keys: Record<string, string> = {
      ENTER: '\n',
      TAB: '\t',
      BS: '\x7f',
      ESC: '\x1b',
      UP: '\x1b[A',
      DOWN: '\x1b[B',
      RIGHT: '\x1b[C',
      LEFT: '\x1b[D',
      HOME: '\x1b[H',
      END: '\x1b[F',
      PGUP: '\x1b[5~',
      PGDN: '\x1b[6~',
    };
    for (const [key, bytes] of Object.entries(keys)) {
      expect(terminalInput(key)).toEqual({ kind: 'write', data: bytes });
      expect(terminalInput(key.toLowerCase())).toEqual({ kind: 'write', data: bytes });
    }
  });

  it('writes another control key as its control byte (C-d ends input, C-z is written, not raised)', () => {
    expect(terminalInput('C-d')).toEqual({ kind: 'write', data: '\x04' });
    expect(terminalInput('C-D')).toEqual({ kind: 'write', data: '\x04' });
    expect(terminalInput('C-z')).toEqual({ kind: 'write', data: '\x1a' });
    expect(terminalInput('C-a')).toEqual({ kind: 'write', data: '\x01' });
  });

  it('writes text with one line end (Enter), adding none where it has one', () => {
    expect(terminalInput('yes')).toEqual({ kind: 'write', data: 'yes\n' });
    expect(terminalInput('two\nlines\n')).toEqual({ kind: 'write', data: 'two\nlines\n' });
    expect(terminalInput('C-dd')).toEqual({ kind: 'write', data: 'C-dd\n' });
  });
});

describe('isControlKey', () => {
  it('is C- and one character, trimmed', () => {
    expect(isControlKey(' C-c ')).toBe(true);
    expect(isControlKey('C-')).toBe(false);
    expect(isControlKey('C-cc')).toBe(false);
    expect(isControlKey('X-c')).toBe(false);
  });
});
