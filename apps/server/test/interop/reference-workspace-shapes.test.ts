import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers.js';
import {
  api,
  headers,
  type Info,
  outside,
  referenceCreateBody,
  server,
  setUpReferenceServer,
  workspace,
} from './reference-client.js';

// The reference's RemoteWorkspace calls against our server (setup and the client's calls: reference-client.ts).
setUpReferenceServer();

describe('the reference RemoteWorkspace against our server', () => {
  it('runs a command the way the client polls for it, with the minimal environment', async () => {
    process.env.X_INTEROP_SECRET_TOKEN = 'host-credential';
    try {
      const started = await api('POST', '/api/bash/start_bash_command', {
        command: 'echo out; echo err >&2; printenv X_INTEROP_SECRET_TOKEN || echo token=none; pwd; exit 3',
        timeout: 30,
        cwd: workspace,
      });
      expect(started.status).toBe(200);
      const command = started.json as Info;
      expect(command).toMatchObject({ kind: 'BashCommand', command: expect.any(String), timeout: 30 });
      let lastOrder = -1;
      let stdout = '';
      let stderr = '';
      let exitCode: number | null = null;
      await waitFor(async () => {
        const params = new URLSearchParams({
          command_id__eq: command.id as string,
          sort_order: 'TIMESTAMP',
          limit: '100',
          kind__eq: 'BashOutput',
        });
        if (lastOrder >= 0) params.set('order__gt', String(lastOrder));
        const page = (await api('GET', `/api/bash/bash_events/search?${params}`)).json as { items: Info[] };
        for (const event of page.items) {
          lastOrder = Math.max(lastOrder, event.order as number);
          stdout += (event.stdout as string | null) ?? '';
          stderr += (event.stderr as string | null) ?? '';
          if (event.exit_code !== null) exitCode = event.exit_code as number;
        }
        return exitCode !== null;
      });
      expect(exitCode).toBe(3);
      expect(stdout).toContain('out\n');
      expect(stdout).toContain('token=none');
      expect(stdout).toContain(workspace);
      expect(stderr).toContain('err');
    } finally {
      delete process.env.X_INTEROP_SECRET_TOKEN;
    }
  });

  it('uploads (multipart) and downloads files inside a workspace; refuses paths and links outside', async () => {
    // The workspace is a conversation's working directory.
    await api('POST', '/api/conversations', referenceCreateBody());
    const target = join(workspace, 'sub', 'data.bin');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([0, 1, 2, 255])]), 'data.bin');
    const upload = await fetch(`${server.url}/api/file/upload?path=${encodeURIComponent(target)}`, {
      method: 'POST',
      headers,
      body: form,
    });
    expect(await upload.json()).toEqual({ success: true });
    expect([...(await readFile(target))]).toEqual([0, 1, 2, 255]);

    const download = await fetch(`${server.url}/api/file/download?path=${encodeURIComponent(target)}`, { headers });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect([...new Uint8Array(await download.arrayBuffer())]).toEqual([0, 1, 2, 255]);

    await writeFile(join(outside, 'secret.txt'), 'outside');
    const outsideRead = await fetch(
      `${server.url}/api/file/download?path=${encodeURIComponent(join(outside, 'secret.txt'))}`,
      {
        headers,
      },
    );
    expect(outsideRead.status).toBe(403);
    await mkdir(join(workspace, 'links'), { recursive: true });
    await symlink(join(outside, 'secret.txt'), join(workspace, 'links', 'leak'));
    const viaLink = await fetch(
      `${server.url}/api/file/download?path=${encodeURIComponent(join(workspace, 'links', 'leak'))}`,
      { headers },
    );
    expect(viaLink.status).toBe(403);
    const writeViaLink = await fetch(
      `${server.url}/api/file/upload?path=${encodeURIComponent(join(workspace, 'links', 'leak'))}`,
      { method: 'POST', headers, body: form },
    );
    expect(writeViaLink.status).toBe(403);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside');
    const relative = await fetch(`${server.url}/api/file/download?path=relative.txt`, { headers });
    expect(relative.status).toBe(400);
    const missing = await fetch(`${server.url}/api/file/download?path=${encodeURIComponent(join(workspace, 'nope'))}`, {
      headers,
    });
    expect(missing.status).toBe(404);
    const cwdOutside = await api('POST', '/api/bash/start_bash_command', { command: 'true', cwd: outside });
    expect(cwdOutside.status).toBe(403);
  });

  it('every new route needs the session key', async () => {
    for (const [method, path] of [
      ['POST', '/api/bash/start_bash_command'],
      ['GET', '/api/bash/bash_events/search'],
      ['GET', '/api/bash/bash_events/some-id'],
      ['DELETE', '/api/bash/bash_events'],
      ['POST', '/api/file/upload?path=/tmp/x'],
      ['GET', '/api/file/download?path=/tmp/x'],
      ['POST', '/api/conversations/00000000-0000-4000-8000-000000000000/fork'],
      ['POST', '/api/conversations/00000000-0000-4000-8000-000000000000/navigate'],
      ['POST', '/api/conversations/00000000-0000-4000-8000-000000000000/secrets'],
      ['POST', '/api/conversations/00000000-0000-4000-8000-000000000000/security_analyzer'],
    ] as const) {
      expect((await server.call(method, path, method === 'POST' ? {} : undefined)).status, path).toBe(401);
    }
  });
});
