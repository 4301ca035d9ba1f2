// An upload (POST /api/file/upload) into the working directory of a conversation whose directory was removed from
// disk: a 404 `working_dir_missing` naming it, and the directory is not made again (the conversation's tools would
// work in an empty directory the user removed). A path in no conversation's working directory is made as before.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

async function upload(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.append('file', new Blob(['hello']), 'a.txt');
  const response = await fetch(`${server.url}/api/file/upload?path=${encodeURIComponent(path)}`, {
    method: 'POST',
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function workingDirOfNewConversation(): Promise<string> {
  const created = await server.call('POST', '/api/conversations', createRequest(server.llm));
  expect(created.status).toBe(201);
  return (created.json as { workspace: { working_dir: string } }).workspace.working_dir;
}

describe('an upload into a removed working directory', () => {
  it('answers 404 working_dir_missing and does not make the directory again', async () => {
    const workingDir = await workingDirOfNewConversation();
    await rm(workingDir, { recursive: true });
    for (const path of [join(workingDir, 'a.txt'), join(workingDir, 'deeper', 'a.txt')]) {
      const { status, body } = await upload(path);
      expect(status, path).toBe(404);
      expect(body.code).toBe('working_dir_missing');
      expect(String(body.detail)).toContain(workingDir);
    }
    expect(existsSync(workingDir)).toBe(false);
  });

  it('still uploads into a working directory that is there, and makes a directory no conversation works in', async () => {
    const workingDir = await workingDirOfNewConversation();
    expect((await upload(join(workingDir, 'sub', 'a.txt'))).status).toBe(200);
    const elsewhere = join(server.dataDir, 'workspaces', 'shared-inbox', 'a.txt');
    expect((await upload(elsewhere)).status).toBe(200);
    expect(existsSync(elsewhere)).toBe(true);
  });
});
