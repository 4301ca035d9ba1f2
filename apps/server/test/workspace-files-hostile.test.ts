import { mkdir, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer, tempDir } from './helpers.js';
import { rawRequest } from './support/raw-http.js';

/**
 * The workspace file routes and `workspace.working_dir` against path spellings sent raw (the query exactly as
 * written: `%2e%2e`, double encoding, `%00`, `%5C`), symlink loops, files used as directories and names too long:
 * every one is refused with a 4xx naming the problem, or lands inside the workspace root; none reads or writes
 * outside it, none is a 500.
 */
let server: TestServer;
let port: number;
let root: string;
let outside: string;
const SECRET = 'outside-secret-content';

beforeAll(async () => {
  server = await startTestServer();
  port = Number(new URL(server.url).port);
  root = await realpath(join(server.dataDir, 'workspaces'));
  outside = await tempDir();
  await writeFile(join(outside, 'secret.txt'), SECRET);
  await writeFile(join(root, 'file.txt'), 'inside');
  await symlink('loop-b', join(root, 'loop-a'));
  await symlink('loop-a', join(root, 'loop-b'));
  await symlink(outside, join(root, 'out-link'));
  await symlink(join(outside, 'secret.txt'), join(root, 'secret-link'));
  await symlink(join(outside, 'absent.txt'), join(root, 'dangling-link'));
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
  await removeDir(outside);
});

/** Query values exactly as sent (already encoded as an attacker would write them). */
function hostileQueries(): string[] {
  const up = root
    .split('/')
    .filter(Boolean)
    .map(() => '..')
    .join('/');
  const outsideRel = `${up}${outside}`;
  return [
    `${root}/${outsideRel}/secret.txt`,
    `${root}/${outsideRel.replaceAll('..', '%2e%2e')}/secret.txt`,
    `${root}/${outsideRel.replaceAll('..', '%2E%2E')}/secret.txt`,
    `${root}/${outsideRel.replaceAll('/', '%2f')}%2fsecret.txt`,
    `${root}%2f..%2f..%2f..%2f..%2f..%2f..${outside}/secret.txt`,
    `${outside}/secret.txt`,
    `${outside.replaceAll('/', '%2F')}%2Fsecret.txt`,
    `/proc/self/root${outside}/secret.txt`,
    `${root}/out-link/secret.txt`,
    `${root}/out-link/new.txt`,
    `${root}/loop-a`,
    `${root}/loop-a/x`,
    `${root}/file.txt/x`,
    `${root}/${'a'.repeat(300)}`,
    `${root}/nul%00/../../secret.txt`,
    `${root}/file.txt%00.png`,
    'relative/path.txt',
    '..%2f..%2fsecret.txt',
    '%5C..%5C..%5Csecret.txt',
    `${root}/file.txt&path=${outside}/secret.txt`,
    // A link to a file outside (read through, or written through), one to a file that does not exist yet.
    `${root}/secret-link`,
    `${root}/dangling-link`,
    `${root}/out-link/../out-link/secret.txt`,
    // Backslashes raw, names too long on the way.
    `${root}\\${outsideRel.replaceAll('/', '\\')}\\secret.txt`,
    `${root}/${'a'.repeat(255)}/${'b'.repeat(255)}/${'c'.repeat(3000)}`,
    `${outside}/secret.txt&path=${root}/file.txt`,
    '',
  ];
}

/**
 * Spellings that are names, not `..` or `/`: fullwidth dots and solidus, the two-dot leader, an overlong UTF-8 `.`
 * (decoded as U+FFFD), a `%2e%2e` decoded once. A file written with one lands inside the workspace root.
 */
function lookalikeQueries(): string[] {
  const outsideRel = `${root
    .split('/')
    .filter(Boolean)
    .map(() => '..')
    .join('/')}${outside}`;
  return [
    `${root}/${outsideRel.replaceAll('..', '%EF%BC%8E%EF%BC%8E')}/secret.txt`,
    `${root}/${outsideRel.replaceAll('/', '%EF%BC%8F')}%EF%BC%8Fsecret.txt`,
    `${root}/${outsideRel.replaceAll('..', '%E2%80%A5')}/secret.txt`,
    `${root}/${outsideRel.replaceAll('..', '%C0%AE%C0%AE')}/secret.txt`,
    `${root}/${outsideRel.replaceAll('..', '%252e%252e')}/../../secret.txt`,
  ];
}

async function outsideState(): Promise<string> {
  return `${(await readdir(outside)).sort().join(',')}=${await readFile(join(outside, 'secret.txt'), 'utf8')}`;
}

function multipart(body: string): { body: string; headers: Record<string, string> } {
  const boundary = 'hostile-boundary';
  return {
    body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\n\r\n${body}\r\n--${boundary}--\r\n`,
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('file routes against hostile spellings sent raw', () => {
  it('refuse every one with a 4xx {"detail"} and never touch the outside', async () => {
    const before = await outsideState();
    const problems: string[] = [];
    for (const query of hostileQueries()) {
      for (const route of ['download', 'upload'] as const) {
        const target = `/api/file/${route}?path=${query}`;
        const response =
          route === 'download'
            ? await rawRequest(port, { target })
            : await rawRequest(port, { method: 'POST', target, ...multipart('planted') });
        const shown = `${route} ${query.slice(0, 80)} → ${response.status}`;
        if (response.status < 400 || response.status >= 500) problems.push(shown);
        // 422 is the reference's validation shape (`detail` a list of field errors), the others a message.
        else if ((JSON.parse(response.body) as { detail?: unknown }).detail === undefined) problems.push(shown);
        if (response.body.includes(SECRET)) problems.push(`${shown}: leaked`);
        // A link inside the root to the outside is refused where the path is confined (403), not only by the open.
        if (/\/(secret|out)-link/.test(query) && response.status !== 403) problems.push(`${shown}: not confined`);
      }
    }
    expect(problems).toEqual([]);
    expect(await outsideState()).toBe(before);
  });

  it('take look-alikes of the dot and the slash as names: a file written with one lands inside the root', async () => {
    const before = await outsideState();
    const problems: string[] = [];
    for (const query of lookalikeQueries()) {
      const download = await rawRequest(port, { target: `/api/file/download?path=${query}` });
      const upload = await rawRequest(port, {
        method: 'POST',
        target: `/api/file/upload?path=${query}`,
        ...multipart('planted'),
      });
      // Written, it is read back by the same spelling: a file of the workspace root (the outside is unchanged, below).
      const back = await rawRequest(port, { target: `/api/file/download?path=${query}` });
      if (download.status !== 404 || download.body.includes(SECRET)) {
        problems.push(`download ${query} → ${download.status}`);
      }
      if (upload.status === 200 ? back.body !== 'planted' : upload.status < 400 || upload.status >= 500) {
        problems.push(`upload ${query} → ${upload.status}, read back ${back.status}`);
      }
    }
    expect(problems).toEqual([]);
    expect(await outsideState()).toBe(before);
  });

  it('say what was wrong: a loop, a file used as a directory, a name too long', async () => {
    const detail = async (path: string) => {
      const response = await rawRequest(port, { target: `/api/file/download?path=${encodeURIComponent(path)}` });
      return { status: response.status, detail: (JSON.parse(response.body) as { detail: string }).detail };
    };
    expect(await detail(`${root}/loop-a/x`)).toEqual({ status: 403, detail: expect.stringContaining('loops') });
    expect(await detail(`${root}/file.txt/x`)).toEqual({
      status: 400,
      detail: expect.stringContaining('not a directory'),
    });
    expect(await detail(`${root}/${'a'.repeat(300)}`)).toEqual({
      status: 400,
      detail: expect.stringContaining('long'),
    });
  });

  it('treat a once-decoded %2e%2e (sent as %252e%252e) as a plain name inside the workspace', async () => {
    const response = await rawRequest(port, {
      method: 'POST',
      target: `/api/file/upload?path=${root}/%252e%252e/planted.txt`,
      ...multipart('planted'),
    });
    expect(response.status).toBe(200);
    expect(await readFile(join(root, '%2e%2e', 'planted.txt'), 'utf8')).toBe('planted');
  });
});

describe('workspace.working_dir against hostile spellings', () => {
  it('refuses loops, files on the way, long names and escapes with 422 naming the field', async () => {
    await mkdir(join(root, 'dir'), { recursive: true });
    for (const working_dir of [
      join(root, 'loop-a'),
      join(root, 'loop-a', 'x'),
      join(root, 'file.txt', 'x'),
      join(root, 'a'.repeat(300)),
      join(root, 'out-link'),
      `${root}/dir/../../..${outside}`,
      outside,
    ]) {
      const { status, json } = await server.call('POST', '/api/conversations', {
        agent: { llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'sk-x' } },
        workspace: { working_dir },
      });
      expect({ working_dir, status }).toEqual({ working_dir, status: 422 });
      expect(JSON.stringify(json)).toContain('working_dir');
    }
  });
});
