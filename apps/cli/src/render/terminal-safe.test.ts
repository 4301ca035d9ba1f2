import { type AnyEvent, createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { createColors } from './colors.js';
import { prettyLogLine } from './pretty-log.js';
import { terminalOutput, terminalSafe, terminalText } from './terminal-safe.js';
import { createVisualizer } from './visualizer.js';

describe('terminalText', () => {
  it('spells out every control character but newline and tab, and the bidirectional controls', () => {
    expect(terminalText('a\u001b]0;t\u0007b')).toBe('a\\x1b]0;t\\x07b');
    expect(terminalText('x\ry\bz\f\v\u0000\u007f\u0085\u009b')).toBe('x\\ry\\bz\\f\\v\\x00\\x7f\\x85\\x9b');
    expect(terminalText('\u202eabc\u202c \u2066d\u2069 \u200f\u061c')).toBe(
      '\\u202eabc\\u202c \\u2066d\\u2069 \\u200f\\u061c',
    );
    expect(terminalText('line one\n\tline two — ünïcode 漢字')).toBe('line one\n\tline two — ünïcode 漢字');
  });
});

describe('terminalOutput', () => {
  it("keeps the CLI's color sequences and spells out every other escape", () => {
    const c = createColors(true);
    const colored = `${c.bold(c.cyan('title'))} ${c.dim('detail')}`;
    expect(terminalOutput(colored)).toBe(colored);
    expect(terminalOutput(`${c.red('x')}\u001b]52;c;Zm9v\u0007\u001b[2J\u001bc\r`)).toBe(
      `${c.red('x')}\\x1b]52;c;Zm9v\\x07\\x1b[2J\\x1bc\\r`,
    );
  });
});

describe('terminalSafe', () => {
  it('makes every string of a value safe, keys included, and leaves other values', () => {
    const value = { 'k\u001b': ['a\rb', { n: 1, ok: true, none: null }], text: '\u009bx' };
    expect(terminalSafe(value)).toEqual({ 'k\\x1b': ['a\\rb', { n: 1, ok: true, none: null }], text: '\\x9bx' });
  });
});

describe('renderers', () => {
  const plain = createColors(false);

  it('streamed tokens are spelled out, and the message they made is not printed twice', () => {
    const written: string[] = [];
    const output = {
      colors: plain,
      line: (text = '') => written.push(`${text}\n`),
      write: (t: string) => written.push(t),
    };
    const visualizer = createVisualizer(output as never);
    const text = 'hi \u001b]0;t\u0007';
    visualizer.render({ kind: 'StreamingDeltaEvent', content: text } as unknown as AnyEvent);
    visualizer.render(
      createEvent('MessageEvent', {
        source: 'agent',
        llm_message: { role: 'assistant', content: [{ type: 'text', text }] },
      }),
    );
    visualizer.flush();
    const shown = written.join('');
    expect(shown).toContain('hi \\x1b]0;t\\x07');
    expect(shown).not.toContain('\u001b');
    expect(shown.split('hi \\x1b').length - 1).toBe(1);
  });

  it('a server log line shows its message and fields spelled out', () => {
    const line = JSON.stringify({ level: 30, time: 0, msg: 'got \u001b[2J', url: '/a\u001b]0;t\u0007' });
    const shown = prettyLogLine(line, plain);
    expect(shown).toContain('got \\x1b[2J');
    expect(shown).toContain('url=/a\\x1b]0;t\\x07');
    expect(prettyLogLine('not json \u001b[2J', plain)).toBe('not json \\x1b[2J');
  });
});

describe('terminalSafe and fields named like inherited properties', () => {
  it('keeps a __proto__ field a field: its contents never read as fields of the copy', () => {
    const value = JSON.parse('{"args": {"__proto__": {"command": "rm -rf /"}, "constructor": "c\\u001b"}}');
    const safe = terminalSafe(value) as { args: Record<string, unknown> };
    expect(Object.getPrototypeOf(safe.args)).toBe(Object.prototype);
    expect(safe.args.command).toBeUndefined();
    expect(Object.keys(safe.args)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(safe)).toBe('{"args":{"__proto__":{"command":"rm -rf /"},"constructor":"c\\\\x1b"}}');
  });
});
