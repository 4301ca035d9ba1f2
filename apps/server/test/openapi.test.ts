import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_CONTENT_SECURITY_POLICY, DOCS_PREFIX } from '../src/api/docs-routes.js';
import { type BuiltServer, buildServer } from '../src/index.js';
import { removeDir, tempDir } from './helpers.js';

interface Operation {
  operationId?: string;
  security?: unknown[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  openapi: string;
  security?: Record<string, string[]>[];
  components?: { securitySchemes?: Record<string, { type: string; in?: string; name?: string }> };
  paths: Record<string, Record<string, Operation>>;
}

const KEY = 'docs-test-key';
let dataDir: string;
let built: BuiltServer;
let url: string;
let document: Document;
let documentText: string;

beforeAll(async () => {
  dataDir = await tempDir();
  built = await buildServer({ port: 0, dataDir, logLevel: 'silent', apiKeys: [KEY] });
  ({ url } = await built.listen());
  const response = await fetch(`${url}/openapi.json`);
  expect(response.status).toBe(200);
  documentText = await response.text();
  document = JSON.parse(documentText) as Document;
});

afterAll(async () => {
  await built.close();
  await removeDir(dataDir);
});

/** `/api/conversations/:conversation_id` → `/api/conversations/{conversation_id}`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, '{$1}');
}

const PUBLIC_OPERATIONS = new Set(['alive', 'health', 'ready', 'serverInfo', 'openapiDocument', 'a2aAgentCard']);

function operations(): { path: string; method: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
}

describe('OpenAPI document', () => {
  it('passes the Redocly linter (recommended-strict) without a problem', async () => {
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({ source: documentText, absoluteRef: '/openapi.json', config });
    expect(
      problems.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`),
    ).toEqual([]);
  });

  it('declares the X-Session-API-Key scheme and requires it by default', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components?.securitySchemes?.sessionApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Session-API-Key',
    });
    expect(document.security).toEqual([{ sessionApiKey: [] }]);
  });

  it('gives every operation a unique operationId, a 2xx schema, error responses and security unless public', () => {
    const all = operations();
    expect(all.length).toBeGreaterThanOrEqual(25);
    const problems: string[] = [];
    const ids = new Set<string>();
    for (const { path, method, operation } of all) {
      const name = `${method.toUpperCase()} ${path}`;
      const id = operation.operationId;
      if (id === undefined) problems.push(`${name}: no operationId`);
      else if (ids.has(id)) problems.push(`${name}: duplicate operationId ${id}`);
      else ids.add(id);
      const responses = operation.responses ?? {};
      const success = Object.entries(responses).filter(([status]) => /^2\d\d$/.test(status));
      if (success.length === 0) problems.push(`${name}: no 2xx response`);
      for (const [status, response] of success) {
        if (response.content?.['application/json']?.schema === undefined) problems.push(`${name}: ${status} no schema`);
        if (response.description === 'Default Response') problems.push(`${name}: ${status} not described`);
      }
      for (const status of ['4XX', '5XX']) {
        if (responses[status]?.content?.['application/json']?.schema === undefined) {
          problems.push(`${name}: no ${status} error schema`);
        }
      }
      const isPublic = id !== undefined && PUBLIC_OPERATIONS.has(id);
      if (isPublic && JSON.stringify(operation.security) !== '[]')
        problems.push(`${name}: public but not security: []`);
      // The OpenAI-compatible gateway and the MCP face take the same key as a bearer token too (what OpenAI clients
      // send, and MCP's authorization header).
      const gateway =
        JSON.stringify(operation.security) === JSON.stringify([{ sessionApiKey: [] }, { bearerAuth: [] }]);
      if (!isPublic) {
        if (operation.security !== undefined && !(gateway && (path.startsWith('/v1/') || path === '/api/mcp')))
          problems.push(`${name}: overrides the document's security`);
        if (responses['401'] === undefined) problems.push(`${name}: no 401 response`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('describes every registered route but automatic HEAD routes and hidden public pages', () => {
    const missing = built.routes
      .filter((route) => route.method !== 'HEAD' && route.hidden !== true)
      .filter((route) => document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()] === undefined)
      .map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);
    // And nothing documented that is not served.
    const served = new Set(built.routes.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`));
    const extra = operations().filter(({ path, method }) => !served.has(`${method} ${path}`));
    expect(extra).toEqual([]);
  });

  it('hides only public pages (the viewer, the docs page), never an API route', async () => {
    const hidden = built.routes.filter((route) => route.hidden === true && route.method !== 'HEAD');
    expect(hidden.map((route) => route.url)).toContain(DOCS_PREFIX);
    for (const route of hidden) {
      expect(route.url.startsWith('/api'), route.url).toBe(false);
      if (route.url.includes('*') || route.url.includes(':')) continue;
      // Reachable without a key: a hidden route that needed one would be an undocumented API.
      const response = await fetch(`${url}${route.url}`, { redirect: 'manual' });
      expect(response.status, route.url).toBeLessThan(400);
    }
  });

  it('serializes responses through the declared schemas (a 201 create and its error responses conform)', async () => {
    const headers = { 'x-session-api-key': KEY, 'content-type': 'application/json' };
    const created = await fetch(`${url}/api/conversations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ agent: { llm: { model: 'offline' } } }),
    });
    expect(created.status).toBe(201);
    const info = (await created.json()) as Record<string, unknown>;
    // Loose objects keep every field of ConversationInfo, including those the schema does not name.
    expect(info).toMatchObject({ execution_status: 'idle', blocked_actions: {}, sub_conversation_ids: [] });
    const invalid = await fetch(`${url}/api/conversations`, { method: 'POST', headers, body: '{"agent": 1}' });
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { detail: unknown[] }).detail[0]).toMatchObject({ loc: ['body', 'agent'] });
    const unauthorized = await fetch(`${url}/api/conversations/count`);
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({ detail: 'Unauthorized' });
  });
});

describe('docs page', () => {
  it('serves Swagger UI without a key, with a CSP, from local assets only', async () => {
    const page = await fetch(`${url}${DOCS_PREFIX}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toBe(DOCS_CONTENT_SECURITY_POLICY);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      // Relative to this server: no CDN, so the page works offline.
      expect(asset.startsWith(`${DOCS_PREFIX}/`), asset).toBe(true);
      const response = await fetch(`${url}${asset}`);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('content-security-policy'), asset).toBe(DOCS_CONTENT_SECURITY_POLICY);
      await response.arrayBuffer();
    }
    const initializer = await (await fetch(`${url}${DOCS_PREFIX}/static/swagger-initializer.js`)).text();
    // No spec validator badge (it would call validator.swagger.io), and no URL outside comments.
    expect(initializer).toContain('validatorUrl: null');
    const code = initializer.split('\n').filter((line) => !line.trim().startsWith('//'));
    expect(code.filter((line) => /https?:\/\//.test(line))).toEqual([]);
    const json = await fetch(`${url}${DOCS_PREFIX}/json`);
    expect(json.status).toBe(200);
    expect(((await json.json()) as Document).paths['/api/conversations']).toBeDefined();
  });

  it('still refuses the API without a key', async () => {
    expect((await fetch(`${url}/api/conversations/search`)).status).toBe(401);
    expect((await fetch(`${url}${DOCS_PREFIX}/../api/conversations/search`)).status).toBe(401);
  });
});
