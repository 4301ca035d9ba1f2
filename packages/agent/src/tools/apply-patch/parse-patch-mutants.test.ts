import { describe, expect, it } from 'vitest';
import { filesNeeded, parsePatch } from './parse-patch.js';
import { patchToCommit } from './patch-commit.js';

/** Applies an update patch to `content` (the file `f.txt`) as the tool does, minus the disk. */
function update(content: string, hunks: readonly string[]): { content: string | undefined; fuzz: number } {
  const text = ['*** Begin Patch', '*** Update File: f.txt', ...hunks, '*** End Patch'].join('\n');
  const current = new Map(filesNeeded(text).map((path) => [path, content]));
  const patch = parsePatch(text, current);
  return { content: patchToCommit(patch, current).changes['f.txt']?.new_content, fuzz: patch.fuzz };
}

describe('parsePatch hunks', () => {
  it('keeps the context that follows a change in place', () => {
    const result = update('def f():\n    a = 1\n    return a\n', [
      ' def f():',
      '-    a = 1',
      '+    a = 2',
      '     return a',
    ]);
    expect(result).toEqual({ content: 'def f():\n    a = 2\n    return a\n', fuzz: 0 });
  });

  it('edits the last line of a file without a trailing newline', () => {
    expect(update('a\nb', ['-b', '+c'])).toEqual({ content: 'a\nc', fuzz: 0 });
  });

  it('searches the context from the line after an @@ line, not from the @@ line itself', () => {
    expect(update('x\ny\nx\ny\n', ['@@ x', ' x', '-y', '+z'])).toEqual({ content: 'x\ny\nx\nz\n', fuzz: 0 });
  });

  it('searches the context from the line after an @@ line matched only once indentation is ignored', () => {
    expect(update('  x\ny\n  x\ny\n', ['@@ x', '   x', '-y', '+z'])).toEqual({ content: '  x\ny\n  x\nz\n', fuzz: 1 });
  });

  it('finds an @@ line that matches only once indentation is ignored, counting one fuzz', () => {
    const file =
      'class First:\n    def run(self):\n        return 1\n\nclass Second:\n    def run2(self):\n        return 1\n';
    expect(update(file, ['@@ def run2(self):', '-        return 1', '+        return 2'])).toEqual({
      content: file.replace(/return 1\n$/, 'return 2\n'),
      fuzz: 1,
    });
  });

  it('searches each hunk after the context of the one before it, so the same context twice edits two places', () => {
    expect(update('a\nb\na\nb\n', [' a', '-b', '+B', '@@', ' a', '-b', '+C'])).toEqual({
      content: 'a\nB\na\nC\n',
      fuzz: 0,
    });
  });

  it('counts no fuzz for several hunks whose @@ lines match exactly', () => {
    const file = 'def a():\n    return 1\n\ndef b():\n    return 1\n';
    const result = update(file, [
      '@@ def a():',
      '-    return 1',
      '+    return 10',
      '@@ def b():',
      '-    return 1',
      '+    return 20',
    ]);
    expect(result).toEqual({ content: 'def a():\n    return 10\n\ndef b():\n    return 20\n', fuzz: 0 });
  });
});

describe('parsePatch End of File', () => {
  it('anchors an End of File hunk at the end of the file, where the same context also occurs earlier', () => {
    const result = update('end\nmiddle\nend', [' end', '+after', '*** End of File']);
    expect(result).toEqual({ content: 'end\nmiddle\nend\nafter', fuzz: 0 });
  });

  it('accepts a further file after an End of File hunk', () => {
    const text = [
      '*** Begin Patch',
      '*** Update File: f.txt',
      ' two',
      '+three',
      '*** End of File',
      '*** Add File: g.txt',
      '+new',
      '*** End Patch',
    ].join('\n');
    const current = new Map([['f.txt', 'one\ntwo']]);
    expect(patchToCommit(parsePatch(text, current), current).changes).toEqual({
      'f.txt': { type: 'update', old_content: 'one\ntwo', new_content: 'one\ntwo\nthree' },
      'g.txt': { type: 'add', new_content: 'new' },
    });
  });

  it("counts a file's trailing newline against End of File context as the reference does (fuzz 10000)", () => {
    // `split('\n')` leaves an empty last line, so the context is found one line before the very end: the
    // reference's fallback search, which it reports as fuzz 10000.
    expect(update('one\ntwo\n', [' two', '+three', '*** End of File'])).toEqual({
      content: 'one\ntwo\nthree\n',
      fuzz: 10000,
    });
  });

  it('lets a hunk of context alone be followed by an End of File hunk over the same lines', () => {
    expect(update('a\nb\nc', ['@@', ' a', ' b', ' c', '@@', ' b', '-c', '+C', '*** End of File'])).toEqual({
      content: 'a\nb\nC',
      fuzz: 0,
    });
  });
});

describe('parsePatch move paths', () => {
  it('refuses an absolute move path, even one naming a file that could be inside the workspace', () => {
    expect(() => update('a\n', ['*** Move to: /workspace/b.txt', '-a', '+b'])).toThrow(
      "Update File Error: Invalid move path '/workspace/b.txt': must be a relative path without '..' components",
    );
  });

  it('accepts a relative move path into a subdirectory', () => {
    const text = ['*** Begin Patch', '*** Update File: f.txt', '*** Move to: dir/g.txt', '-a', '+b', '*** End Patch'];
    const current = new Map([['f.txt', 'a\n']]);
    expect(patchToCommit(parsePatch(text.join('\n'), current), current).changes['f.txt']).toEqual({
      type: 'update',
      old_content: 'a\n',
      new_content: 'b\n',
      move_path: 'dir/g.txt',
    });
  });
});

describe('parsePatch chunks', () => {
  it('inserts lines between two context lines', () => {
    expect(update('a\nc\n', [' a', '+b', ' c'])).toEqual({ content: 'a\nb\nc\n', fuzz: 0 });
  });

  it('deletes a line between two context lines', () => {
    expect(update('a\nb\nc\n', [' a', '-b', ' c'])).toEqual({ content: 'a\nc\n', fuzz: 0 });
  });

  it('inserts a single line that ends a hunk', () => {
    expect(update('a\nb\n', [' a', '+a2'])).toEqual({ content: 'a\na2\nb\n', fuzz: 0 });
  });

  it('keeps a repeated @@ line in the section it already found', () => {
    const file = 'def f():\n    x = 1\n    y = 1\ndef f():\n    y = 1\n';
    const result = update(file, ['@@ def f():', '-    x = 1', '+    x = 2', '@@ def f():', '-    y = 1', '+    y = 2']);
    expect(result).toEqual({ content: 'def f():\n    x = 2\n    y = 2\ndef f():\n    y = 1\n', fuzz: 0 });
  });

  it('refuses two hunks that change the same line', () => {
    expect(() => update('a\nb\nc', ['@@', ' a', '-b', '+B', ' c', '@@', '-b', '+X', ' c', '*** End of File'])).toThrow(
      '_get_updated_file: f.txt: orig_index 2 > chunk.orig_index 1',
    );
  });

  it('matches an End of File hunk spanning the whole file without fuzz', () => {
    expect(update('a\nb', [' a', '-b', '+c', '*** End of File'])).toEqual({ content: 'a\nc', fuzz: 0 });
  });
});

describe('parsePatch envelope', () => {
  it('accepts a patch with no file in it, changing nothing', () => {
    expect(parsePatch('*** Begin Patch\n*** End Patch', new Map())).toEqual({ actions: new Map(), fuzz: 0 });
  });

  it('names a file to update whose content it was not given', () => {
    expect(() => parsePatch('*** Begin Patch\n*** Update File: f.txt\n-a\n*** End Patch', new Map())).toThrow(
      'Update File Error: Missing File: f.txt',
    );
  });
});
