// How `resolveWorkingDir` refuses a working directory it cannot use for a failure the tests cannot cause for real (they
// run as root, so no EACCES): a file system error (`E...`) is the request's 422 naming `workspace.working_dir`, carrying
// the error as its cause; anything else (a bug, another agent error) is thrown as it is, a 500. A workspace root
// deleted while the path was being resolved is the server's 409 `workspace_gone`, not the request's 422.
import { mkdir, mkdtemp, realpath, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confineToRoots, MissingDependencyError, openOrCreateDirectory } from '@x/agent';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidRequestError } from '../src/conversations/errors/invalid-request-error.js';
import { resolveWorkingDir } from '../src/workspace/working-dir.js';
import { WorkspaceGoneError } from '../src/workspace/workspace-gone-error.js';

vi.mock('@x/agent', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@x/agent')>();
  return {
    ...actual,
    confineToRoots: vi.fn(actual.confineToRoots),
    openOrCreateDirectory: vi.fn(actual.openOrCreateDirectory),
  };
});

const hex = 'ab'.repeat(16);
let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-working-dir-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: denied`), { code });

async function refusal(requested: string | undefined): Promise<unknown> {
  return resolveWorkingDir(root, hex, requested).then(
    (dir) => expect.unreachable(`resolved to ${dir}`),
    (error: unknown) => error,
  );
}

describe('resolveWorkingDir', () => {
  it('answers a path it cannot resolve (EACCES) with a 422 naming the field, the code and the cause', async () => {
    const denied = errno('EACCES');
    vi.mocked(confineToRoots).mockRejectedValueOnce(denied);
    const error = await refusal('sub');
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 422,
      loc: ['body', 'workspace', 'working_dir'],
      message: "workspace.working_dir: 'sub' cannot be resolved (EACCES)",
      cause: denied,
    });
  });

  it('answers a directory it cannot open or make (EACCES) with a 422 naming the field, the code and the cause', async () => {
    const denied = errno('EACCES');
    vi.mocked(openOrCreateDirectory).mockRejectedValueOnce(denied);
    const error = await refusal('sub');
    expect(error).toMatchObject({
      statusCode: 422,
      loc: ['body', 'workspace', 'working_dir'],
      message: "workspace.working_dir: 'sub' cannot be used as a directory (EACCES)",
      cause: denied,
    });
  });

  it('throws what is no file system error as it is, whichever step fails', async () => {
    const odd = errno('SOMETHING_ELSE');
    const bug = new TypeError('a bug');
    const other = new MissingDependencyError({ packageName: 'sdk', versionRange: '^1.0.0', feature: 'a test' });
    for (const thrown of [odd, bug, other]) {
      vi.mocked(confineToRoots).mockRejectedValueOnce(thrown);
      expect(await refusal('sub')).toBe(thrown);
      vi.mocked(openOrCreateDirectory).mockRejectedValueOnce(thrown);
      expect(await refusal('sub')).toBe(thrown);
    }
  });

  it('answers 409 workspace_gone when the root is deleted while the path is resolved, and makes nothing', async () => {
    const actual = await vi.importActual<typeof import('@x/agent')>('@x/agent');
    vi.mocked(confineToRoots).mockImplementationOnce(async (...args) => {
      await rm(root, { recursive: true, force: true });
      return actual.confineToRoots(...args);
    });
    const error = await refusal('sub');
    expect(error).toBeInstanceOf(WorkspaceGoneError);
    expect(error).toMatchObject({ statusCode: 409, code: 'workspace_gone' });
    await expect(stat(root)).rejects.toThrow('ENOENT');

    await rm(root, { recursive: true, force: true });
    await mkdir(root);
    vi.mocked(openOrCreateDirectory).mockImplementationOnce(async () => {
      await rm(root, { recursive: true, force: true });
      throw errno('ENOENT');
    });
    expect(await refusal('sub')).toBeInstanceOf(WorkspaceGoneError);
    await expect(stat(root)).rejects.toThrow('ENOENT');
  });

  it('says whether a refused path lies outside the root or goes through a dangling symlink', async () => {
    await mkdir(join(root, hex));
    await symlink(join(root, 'nowhere'), join(root, hex, 'dangling'));
    expect(await refusal('dangling/sub')).toMatchObject({
      statusCode: 422,
      message: "workspace.working_dir: 'dangling/sub' goes through a symlink whose target does not exist",
    });
    expect(await refusal('/')).toMatchObject({
      statusCode: 422,
      message: `workspace.working_dir: '/' is outside the server's workspace root ${root}`,
    });
  });

  it('closes the directory it opened to make the working directory', async () => {
    const actual = await vi.importActual<typeof import('@x/agent')>('@x/agent');
    let open = 0;
    vi.mocked(openOrCreateDirectory).mockImplementationOnce(async (...args) => {
      const directory = await actual.openOrCreateDirectory(...args);
      open += 1;
      return {
        ...directory,
        close: async () => {
          open -= 1;
          await directory.close();
        },
      };
    });
    expect(await resolveWorkingDir(root, hex, 'made')).toBe(join(await realpath(root), hex, 'made'));
    expect(vi.mocked(openOrCreateDirectory)).toHaveBeenCalled();
    expect(open).toBe(0);
  });
});
