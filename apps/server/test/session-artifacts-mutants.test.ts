import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';
import { attachmentFileName } from './support/content-disposition.js';

/** Artifact downloads as a browser reads them, and the save body's edges (an empty text, an empty type). */
let server: TestServer;
let base: string;

beforeAll(async () => {
  server = await startTestServer();
  base = `/api/conversations/${await createConversation(server)}`;
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('an artifact download', () => {
  it('is saved by a browser under the artifact name, whatever characters the name has', async () => {
    for (const name of ["it's (draft) *v2* été.md", 'a;b="c"', '100% ~!#$&+^_`|']) {
      const saved = await server.call('POST', `${base}/artifacts/${encodeURIComponent(name)}`, { text: name });
      expect(saved).toEqual({ status: 201, json: { name, version: 1 } });
      const served = await fetch(`${server.url}${base}/artifacts/${encodeURIComponent(name)}`);
      expect({
        name,
        saved: attachmentFileName(served.headers.get('content-disposition')),
        nosniff: served.headers.get('x-content-type-options'),
        policy: served.headers.get('content-security-policy'),
        body: await served.text(),
      }).toEqual({ name, saved: name, nosniff: 'nosniff', policy: "default-src 'none'; sandbox", body: name });
    }
  });
});

describe('saving an artifact', () => {
  it('keeps an empty text as text, and empty bytes as bytes', async () => {
    expect((await server.call('POST', `${base}/artifacts/empty.txt`, { text: '' })).status).toBe(201);
    const text = await fetch(`${server.url}${base}/artifacts/empty.txt`);
    expect({ type: text.headers.get('content-type'), body: await text.text() }).toEqual({
      type: 'text/plain; charset=utf-8',
      body: '',
    });
    expect((await server.call('POST', `${base}/artifacts/empty.bin`, { base64: '' })).status).toBe(201);
    const bytes = await fetch(`${server.url}${base}/artifacts/empty.bin`);
    expect({ type: bytes.headers.get('content-type'), size: (await bytes.arrayBuffer()).byteLength }).toEqual({
      type: 'application/octet-stream',
      size: 0,
    });
  });

  it('refuses a body with neither text nor base64, or an empty content type, and records nothing', async () => {
    expect((await server.call('POST', `${base}/artifacts/none`, {})).status).toBe(422);
    expect((await server.call('POST', `${base}/artifacts/none`, { mime_type: 'text/plain' })).status).toBe(422);
    expect((await server.call('POST', `${base}/artifacts/none`, { text: 'x', mime_type: '' })).status).toBe(422);
    expect((await server.call('GET', `${base}/artifacts/none`)).status).toBe(404);
  });
});

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
  responses: Record<string, { description?: string }>;
}

describe('the OpenAPI document of the session routes', () => {
  // What a client generated from /openapi.json shows and checks before it calls.
  it('describes their answers and bounds an artifact name to 1-200 characters', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, OpenApiOperation>>;
    };
    const session = document.paths['/api/conversations/{conversation_id}/session'];
    const artifact = document.paths['/api/conversations/{conversation_id}/artifacts/{name}'];
    expect(session?.get?.responses['200']?.description).toBe(
      'The session state and the latest version of each artifact',
    );
    expect(artifact?.post?.responses['201']?.description).toBe('The artifact version written');
    for (const method of ['get', 'post']) {
      const name = artifact?.[method]?.parameters?.find((parameter) => parameter.name === 'name');
      expect({ method, schema: name?.schema }).toMatchObject({ method, schema: { minLength: 1, maxLength: 200 } });
    }
  });
});
