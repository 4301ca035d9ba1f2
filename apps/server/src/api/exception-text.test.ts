import { describe, expect, it } from 'vitest';
import { exceptionText } from './exception-text.js';

// The class name a 500's `exception` starts with, for the shapes of error a library throws: most set no `name` of
// their own (the constructor's is the one that tells), some set one that differs from their constructor's.

/** A class built without a name, as a bundler or a factory may leave one. */
const AnonymousError = (() => class extends Error {})();

describe('exceptionText', () => {
  it("names the class by the error's own name where it set one, else by its constructor", async () => {
    class RenamedError extends Error {
      override name = 'GitInternalError';
    }
    class PlainSubclassError extends Error {}
    expect(await exceptionText(new RenamedError('boom'))).toBe('GitInternalError: boom');
    expect(await exceptionText(new PlainSubclassError('boom'))).toBe('PlainSubclassError: boom');
    expect(await exceptionText(new TypeError('boom'))).toBe('TypeError: boom');
  });

  it('falls back to Error where neither the name nor the constructor names a class', async () => {
    expect(AnonymousError.name).toBe('');
    expect(await exceptionText(new AnonymousError('boom'))).toBe('Error: boom');
    const blankName = Object.assign(new AnonymousError('boom'), { name: '' });
    expect(await exceptionText(blankName)).toBe('Error: boom');
    const oddName = Object.assign(new AnonymousError('boom'), { name: 42 });
    expect(await exceptionText(oddName)).toBe('Error: boom');
  });

  it('keeps paths inside the workspace and hides the named directories, blanks in them included', async () => {
    const error = new Error('cannot copy /work/space/a.txt to /srv/my data/conversations/x/meta.json');
    expect(
      await exceptionText(error, { workspaceRoots: ['/work/space'], directories: ['/srv/my data/conversations'] }),
    ).toBe('Error: cannot copy /work/space/a.txt to <server path>');
  });
});
