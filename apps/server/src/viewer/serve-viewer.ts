import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/**
 * The viewer page's Content-Security-Policy: its own script and style only, no inline script, no
 * remote resource of any kind (images only as inline data: URLs), requests only to this server (the
 * REST API and the event WebSocket), no framing, no forms posting elsewhere. Everything a conversation
 * holds is hostile input: this is the wall behind the viewer's own sanitiser.
 */
export const VIEWER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route anyone may call without the session key (the auth hook skips it). */
    public?: boolean;
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

interface Asset {
  body: Buffer;
  type: string;
}

/**
 * Where the build put the viewer's static files (`dist/viewer-assets/`, copied from `@x/viewer` by
 * the server's build). From the sources (tests run `src/`) the built copy next to them is used.
 */
function assetsDir(): string | undefined {
  for (const relative of ['../viewer-assets/', '../../dist/viewer-assets/']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(`${dir}manifest.json`)) return dir;
  }
  return undefined;
}

function loadAssets(dir: string): Map<string, Asset> {
  const manifest = JSON.parse(readFileSync(`${dir}manifest.json`, 'utf8')) as { files: string[] };
  const assets = new Map<string, Asset>();
  for (const name of manifest.files) {
    // Only plain file names from our own manifest: nothing a request names ever reaches the filesystem.
    if (!/^[a-z0-9-]+\.(?:html|js|css)$/.test(name)) continue;
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (type !== undefined) assets.set(name, { body: readFileSync(`${dir}${name}`), type });
  }
  return assets;
}

/**
 * Serves the web viewer: `GET /` (the page) and `GET /assets/<file>`, public routes (the page asks for
 * the session key itself; every API route it calls stays protected). The files are read once, at
 * start-up, from the assets built with the package; without them `/` redirects to `/server_info`. Returns
 * whether the viewer is served.
 */
export function registerViewerRoutes(app: FastifyInstance): boolean {
  const dir = assetsDir();
  const assets = dir === undefined ? new Map<string, Asset>() : loadAssets(dir);
  const page = assets.get('index.html');
  const headers = {
    'content-security-policy': VIEWER_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  };

  app.get('/', { schema: { hide: true }, config: { public: true } }, async (_request, reply) => {
    if (page === undefined) return reply.redirect('/server_info');
    return reply.headers(headers).header('cache-control', 'no-cache').type(page.type).send(page.body);
  });

  app.get<{ Params: { file: string } }>(
    '/assets/:file',
    { schema: { hide: true }, config: { public: true } },
    async (request, reply) => {
      const asset = request.params.file === 'index.html' ? undefined : assets.get(request.params.file);
      if (asset === undefined) return reply.code(404).send({ detail: 'Not found' });
      return reply.headers(headers).header('cache-control', 'no-cache').type(asset.type).send(asset.body);
    },
  );
  return page !== undefined;
}
