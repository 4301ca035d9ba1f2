import { mkdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from './helpers.js';

// The file routes once the workspace root, or a conversation's working directory in it, was deleted while the server
// runs: a deleted root is the server's failure (409 workspace_gone, as the shell, git and create routes), never a 403
// blaming the path for lying "outside", and no upload makes the root again.
let server: TestServer;
let root: string;

beforeAll(async () => {
  server = await startTestServer();
  root = join(server.dataDir, 'workspaces');
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const q = (path: string) => `?path=${encodeURIComponent(path)}`;

async function download(path: string): Promise<{ status: number; json: unknown }> {
  const answer = await fetch(`${server.url}/api/file/download${q(path)}`);
  return { status: answer.status, json: answer.status === 200 ? await answer.text() : await answer.json() };
}

async function upload(path: string, text: string): Promise<{ status: number; json: unknown }> {
  const form = new FormData();
  form.append('file', new Blob([text]), 'upload.txt');
  const answer = await fetch(`${server.url}/api/file/upload${q(path)}`, { method: 'POST', body: form });
  return { status: answer.status, json: await answer.json() };
}

/** A new conversation's working directory (`<root>/<hex>`, made by the server), as the server reports it. */
async function workingDir(): Promise<string> {
  const created = await server.call('POST', '/api/conversations', createRequest(server.llm));
  expect(created.status).toBe(201);
  return (created.json as { workspace: { working_dir: string } }).workspace.working_dir;
}

describe('the file routes once the workspace root was deleted', () => {
  it('answer 409 workspace_gone for every path under it, upload and download, and make no root again', async () => {
    const directory = await workingDir();
    expect(await upload(join(directory, 'notes.txt'), 'kept')).toEqual({ status: 200, json: { success: true } });
    await rm(root, { recursive: true });
    const gone = {
      status: 409,
      json: { detail: `The server's workspace root ${root} has been deleted`, code: 'workspace_gone' },
    };

    for (const path of [join(root, 'top.txt'), join(directory, 'notes.txt'), join(directory, 'new', 'deep.txt')]) {
      expect({ path, ...(await download(path)) }).toEqual({ path, ...gone });
      expect({ path, ...(await upload(path, 'lost')) }).toEqual({ path, ...gone });
      await expect(stat(root)).rejects.toThrow('ENOENT');
    }
    // Without a root nothing is served, a path outside it included (as the shell routes refuse every cwd).
    expect(await download(join(server.dataDir, 'elsewhere.txt'))).toEqual(gone);
  });

  it('serve files again once whoever removed the root made it again', async () => {
    await mkdir(root, { recursive: true });
    expect(await upload(join(root, 'back.txt'), 'back')).toEqual({ status: 200, json: { success: true } });
    expect(await download(join(root, 'back.txt'))).toEqual({ status: 200, json: 'back' });
  });
});

describe("the file and shell routes once a conversation's working directory was deleted", () => {
  it('answer 404 naming the missing directory for a download and a command run in it', async () => {
    const directory = await workingDir();
    await writeFile(join(directory, 'made.txt'), 'made');
    await rm(directory, { recursive: true });

    expect(await download(join(directory, 'made.txt'))).toEqual({
      status: 404,
      json: { detail: `Invalid path '${join(directory, 'made.txt')}': the directory ${directory} does not exist.` },
    });
    const command = await server.call('POST', '/api/bash/execute_bash_command', { command: 'pwd', cwd: directory });
    expect(command).toEqual({ status: 404, json: { detail: `cwd '${directory}' does not exist` } });
    await expect(stat(directory)).rejects.toThrow('ENOENT');
    // A regular file where a directory is expected stays a 400.
    await writeFile(join(root, 'plain.txt'), 'plain');
    const inFile = await server.call('POST', '/api/bash/execute_bash_command', {
      command: 'pwd',
      cwd: join(root, 'plain.txt'),
    });
    expect(inFile).toEqual({ status: 400, json: { detail: `cwd '${join(root, 'plain.txt')}' is not a directory` } });
  });

  it('make the directories an upload names, below the existing root, as the reference does', async () => {
    const directory = await workingDir();
    await rm(directory, { recursive: true });
    const path = join(directory, 'sub', 'notes.txt');
    expect(await upload(path, 'asked for')).toEqual({ status: 200, json: { success: true } });
    expect(await readFile(join(await realpath(directory), 'sub', 'notes.txt'), 'utf8')).toBe('asked for');
  });
});
