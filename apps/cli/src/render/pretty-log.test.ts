import { describe, expect, it } from 'vitest';
import { createColors } from './colors.js';
import { createPrettyLogStream, prettyLogLine } from './pretty-log.js';

const plain = createColors(false);

describe('prettyLogLine', () => {
  it('turns a pino record into time, level, message and the other fields', () => {
    const time = new Date(2026, 0, 2, 3, 4, 5).getTime();
    const line = JSON.stringify({
      level: 40,
      time,
      pid: 1,
      hostname: 'h',
      msg: 'conversation left out',
      conversationId: 'abc',
      reason: 'bad file',
    });
    expect(prettyLogLine(line, plain)).toBe(
      '03:04:05 WARN  conversation left out conversationId=abc reason="bad file"',
    );
  });

  it('leaves a line that is not a JSON object as it is', () => {
    expect(prettyLogLine('not json', plain)).toBe('not json');
    expect(prettyLogLine('[1,2]', plain)).toBe('[1,2]');
  });

  it('colors the level only when colors are on', () => {
    const line = JSON.stringify({ level: 50, time: 0, msg: 'boom' });
    expect(prettyLogLine(line, createColors(true))).toContain('\u001b[31mERROR');
    expect(prettyLogLine(line, plain)).not.toContain('\u001b[');
  });

  it('writes one pretty line per record of a chunk', () => {
    const written: string[] = [];
    const stream = createPrettyLogStream((text) => written.push(text), plain);
    stream.write(
      `${JSON.stringify({ level: 30, time: 0, msg: 'a' })}\n${JSON.stringify({ level: 30, time: 0, msg: 'b' })}\n`,
    );
    expect(written).toHaveLength(2);
    expect(written.every((text) => text.endsWith('\n'))).toBe(true);
    expect(written[1]).toContain('INFO  b');
  });
});
