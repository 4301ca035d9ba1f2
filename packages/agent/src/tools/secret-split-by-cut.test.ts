import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hideValueEndAtStart, hideValueStartAtEnd } from '../secrets/internal/cut-edges.js';
import { createTerminalTool } from './terminal-tool.js';

// A command's output is kept as its first and last `maxOutputChars` characters while the middle streams past: a
// secret lying across either cut leaves a piece at the head's end or the tail's start that whole-value masking
// cannot find. Those pieces must not reach the observation.

const SECRET = `sk-${'Q7x9K2mPw4Lz'.repeat(6)}Ab3De`; // 80 characters
let workspace: string;
const terminal = createTerminalTool({ noChangeTimeoutSeconds: 1, maxOutputChars: 100 });

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-terminal-cut-')));
});
afterAll(async () => {
  await terminal.closeAll();
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

describe('a secret split by the cut in a long output', () => {
  it('leaves no piece of it at the edges of the kept head and tail', async () => {
    // Head (first 100): the secret, 12 a's, the secret's first 8 characters. Tail (last 100): its last 8 or so,
    // 12 b's, the secret. Masked, both are short enough to be shown whole, side by side.
    const command = `printf '%s' "$S" aaaaaaaaaaaa "$S" "$(head -c 300 /dev/zero | tr '\\0' c)" "$S" bbbbbbbbbbbb "$S"`;
    const observation = await terminal.execute(
      { command, kind: 'TerminalAction' },
      { workspace, conversationId: 'cut', env: { S: SECRET }, secretValues: [SECRET] },
    );
    const output = observation.content.map((part) => ('text' in part ? part.text : '')).join('');
    expect(output).toContain('aaaaaaaaaaaa<secret-hidden>');
    expect(output).toContain('<secret-hidden>bbbbbbbbbbbb');
    expect(output).not.toContain(SECRET.slice(0, 4));
    expect(output).not.toContain(SECRET.slice(-4));
  });
});

describe('a secret across the head and tail of an output nothing was dropped from', () => {
  it('is masked once, whole, as in an output that was never split', async () => {
    // 110 characters: the head keeps the first 100 (30 a's and 70 of the secret), the tail the last 10.
    const observation = await terminal.execute(
      { command: `printf '%s' aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "$S"`, kind: 'TerminalAction' },
      { workspace, conversationId: 'whole', env: { S: SECRET }, secretValues: [SECRET] },
    );
    const output = observation.content.map((part) => ('text' in part ? part.text : '')).join('');
    expect(output).toBe(`${'a'.repeat(30)}<secret-hidden>`);
  });
});

describe('hiding the pieces of a value at a cut', () => {
  const values = ['correct-horse', 'battery'];
  it('hides the longest piece that starts a value at the end, and that ends one at the start', () => {
    expect(hideValueStartAtEnd('log: correct-ho', values, '#')).toBe('log: #');
    expect(hideValueStartAtEnd('log: batt', values, '#')).toBe('log: #');
    expect(hideValueEndAtStart('horse and more', values, '#')).toBe('# and more');
    expect(hideValueEndAtStart('tery!', values, '#')).toBe('#!');
  });

  it('leaves pieces of two characters, whole values (masked already) and text that merely resembles', () => {
    expect(hideValueStartAtEnd('log: co', values, '#')).toBe('log: co');
    expect(hideValueEndAtStart('ry then', values, '#')).toBe('ry then');
    expect(hideValueStartAtEnd('correct-horse', values, '#')).toBe('correct-horse');
    expect(hideValueStartAtEnd('log: correct-', ['incorrect-'], '#')).toBe('log: correct-');
    expect(hideValueEndAtStart('', values, '#')).toBe('');
  });
});

describe('a secret in a long file the file editor views', () => {
  it('is hidden before the view is cut, so no piece of it is left at the cut', async () => {
    const { createFileEditorTool } = await import('./file-editor-tool.js');
    const { writeFile } = await import('node:fs/promises');
    const editor = createFileEditorTool({ maxOutputChars: 400 });
    // As the reference, the file's text (474 characters) is cut before it is numbered: 400 characters keep the
    // notice (250) and the text's first and last 75, and the last 75 start inside the secret on the TOKEN line
    // (followed by 22 characters).
    const lines = [...['x', 'y', 'z', 'u', 't', 's'].map((c) => c.repeat(60)), `TOKEN=${SECRET}`, 'w'.repeat(20)];
    await writeFile(join(workspace, 'config.env'), `${lines.join('\n')}\n`);
    const view = async (secretValues: readonly string[]) => {
      const observation = await editor.execute(
        { command: 'view', path: join(workspace, 'config.env'), kind: 'FileEditorAction' },
        { workspace, secretValues },
      );
      return observation.content.map((part) => ('text' in part ? part.text : '')).join('');
    };
    // Without the secret known, the cut does fall inside it (the test's layout is right).
    const unmasked = await view([]);
    expect(unmasked).toContain('<response clipped');
    expect(unmasked).toContain(SECRET.slice(-8));
    expect(unmasked).not.toContain(SECRET);

    const shown = await view([SECRET]);
    expect(shown).toContain('<response clipped');
    expect(shown).toContain('<secret-hidden>');
    expect(shown).not.toContain(SECRET.slice(0, 4));
    expect(shown).not.toContain(SECRET.slice(-4));
  });
});
