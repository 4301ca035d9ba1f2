// Shared by the browser tests of @x/client, @x/react and the examples. Plain JavaScript (with index.d.ts) so
// that it needs no build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

/** Debian's chromium; `tooling/scripts/ensure-chromium.sh` installs it (CI runs it before the tests). */
export const CHROMIUM = process.env.X_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The CLI's entry point: the test's turbo task builds @x/cli first (turbo.json). */
export const X_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Bundles `entry` (or `contents`, resolved from `resolveDir`) for the browser with esbuild. Any import of a
 * Node built-in anywhere in the graph fails the bundle, naming the importer.
 */
export async function bundleForBrowser(options) {
  const found = [];
  const result = await build({
    ...(options.entry === undefined
      ? { stdin: { contents: options.contents, resolveDir: options.resolveDir, loader: 'tsx' } }
      : { entryPoints: [options.entry] }),
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: options.alias ?? {},
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'refuse-node-builtins',
        setup(builder) {
          builder.onResolve({ filter: /.*/ }, (args) => {
            if (args.path.startsWith('node:') || BUILTINS.has(args.path)) {
              found.push(`${args.importer} imports ${args.path}`);
              return { path: args.path, external: true };
            }
            return undefined;
          });
        },
      },
    ],
  });
  if (found.length > 0) throw new Error(`The browser bundle imports Node built-ins:\n${found.join('\n')}`);
  return { code: result.outputFiles[0].text, inputs: Object.keys(result.metafile.inputs) };
}

/** Headless Debian chromium (never a downloaded browser). A missing browser fails with the fix in its message. */
export async function launchChromium() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Debian's chromium at ${CHROMIUM}. Install it with ` +
        '`bash tooling/scripts/ensure-chromium.sh` (apt-get install -y chromium), or set X_CHROMIUM_PATH.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // A page the test fulfils has no address space of its own, so Chromium would treat its sockets to
      // 127.0.0.1 as a public page reaching into the local network; the real page comes from the server itself.
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessChecks,BlockInsecurePrivateNetworkRequests',
    ],
  });
}

/**
 * Opens `${origin}${path}` with `html` and `script` (at `${path}page.js`) served by the test, not the server: the
 * page is same-origin with the server, as a page the server served would be, so its fetch and WebSocket are
 * allowed (the server sends no CORS headers). Every request off loopback is refused and recorded in `problems`.
 */
export async function openTestPage(browser, { origin, path = '/__test__/', html, script }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname !== '127.0.0.1') {
      problems.push(`blocked request to ${url.href}`);
      return route.abort();
    }
    if (url.origin === origin && url.pathname === path) {
      return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    }
    if (url.origin === origin && url.pathname === `${path}page.js`) {
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: script });
    }
    return route.continue();
  });
  const gate = await gateEventSockets(page);
  return { page, problems, gate, close: () => context.close() };
}

/**
 * Puts the page's event WebSockets through Playwright, so a test can drop them as a network failure would and
 * hold reconnections back (each attempt is refused while held) until it has changed the log.
 */
async function gateEventSockets(page) {
  const open = new Set();
  let held = false;
  let connections = 0;
  await page.routeWebSocket(/\/sockets\/events\//, (socket) => {
    if (held) {
      socket.close({ code: 1011, reason: 'held by the test' });
      return;
    }
    connections += 1;
    const server = socket.connectToServer();
    const pair = { socket, server };
    open.add(pair);
    // A close handler replaces Playwright's forwarding of the close to the other side: forward it here.
    socket.onClose((code, reason) => {
      open.delete(pair);
      void server.close({ code, reason }).catch(() => undefined);
    });
    server.onClose((code, reason) => {
      open.delete(pair);
      void socket.close({ code, reason }).catch(() => undefined);
    });
  });
  return {
    get connections() {
      return connections;
    },
    /** Drops every open event socket and refuses reconnections until `release()`. */
    async dropAndHold() {
      held = true;
      const pairs = [...open];
      open.clear();
      for (const { socket, server } of pairs) {
        await server.close({ code: 1000, reason: 'dropped by the test' }).catch(() => undefined);
        await socket.close({ code: 4000, reason: 'dropped by the test' }).catch(() => undefined);
      }
    },
    release() {
      held = false;
    },
  };
}

/**
 * A real `x serve --testing` (scripted offline agents accepted) on 127.0.0.1, port 0, in a temporary X_HOME,
 * unsandboxed (the tests' agents run no commands), with `apiKey` as its session key.
 */
export async function startXServe({ apiKey }) {
  const home = await mkdtemp(join(tmpdir(), 'x-serve-browser-'));
  const args = ['serve', '--testing', '--unsandboxed', '--port', '0', '--data-dir', join(home, 'server')];
  if (apiKey !== undefined) args.push('--api-key', apiKey);
  const child = spawn(process.execPath, [X_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: home, X_HOME: home, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  const url = await new Promise((resolve, reject) => {
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match !== null) {
        child.stdout.off('data', check);
        child.stderr.off('data', check);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    void exited.then((code) => reject(new Error(`x serve exited with ${code} before listening:\n${output}`)));
  });
  return {
    url,
    get output() {
      return output;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      await rm(home, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
