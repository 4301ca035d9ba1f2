/**
 * The bridge run inside the sandbox (by the host's `node`, as CommonJS) when the network is an allowlist. The
 * sandbox has its own network namespace with only a loopback, so the host's proxy is reached through a unix
 * socket mounted into it: the bridge listens on 127.0.0.1 (any free port of the sandbox's own loopback),
 * forwards every connection to that socket, and then starts the command with the proxy variables pointing at
 * itself. It stays the command's parent and exits with its status (128 + the signal's number when killed),
 * as bubblewrap reports a killed command.
 *
 * `localhost` stays out of the proxy (NO_PROXY): it names the sandbox's own loopback, where a server the
 * command started listens. `127.0.0.1` goes through the proxy, so an allowlist entry `127.0.0.1:8080` reaches
 * the host's listener.
 */
export const PROXY_BRIDGE_SOURCE = `'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const [socketPath, ...argv] = process.argv.slice(2);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.pipe(upstream);
  upstream.pipe(client);
});
server.listen(0, '127.0.0.1', () => {
  const url = 'http://127.0.0.1:' + server.address().port;
  const env = Object.assign({}, process.env, {
    HTTP_PROXY: url, HTTPS_PROXY: url, ALL_PROXY: url, http_proxy: url, https_proxy: url, all_proxy: url,
    NO_PROXY: 'localhost', no_proxy: 'localhost',
  });
  const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit', env });
  // Signals are for the command (Sandbox.signal sends them to it directly); the bridge outlives them.
  for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT']) process.on(name, () => undefined);
  child.on('error', (error) => {
    process.stderr.write(argv[0] + ': ' + error.message + '\\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(signal === null ? code : 128 + (constants.signals[signal] || 0)));
});
`;
