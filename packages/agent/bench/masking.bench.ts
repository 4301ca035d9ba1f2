// Secret masking cost per observation: `SecretRegistry.mask` over 2 KB of typical tool output (a git log with
// commit hashes, a lockfile excerpt with base64 integrity strings, UUIDs, a Docker digest, source code, log lines)
// with no secret registered, with 1 and with 10 secrets registered (none of them in the text: almost every
// observation), and with 1 secret that the text holds as an HTTP Basic header (the run is decoded and hidden).
// Each case is timed in CPU time (user + system: the machine may be shared) over BENCH_ROUNDS rounds of about
// ROUND_MS each after a warm-up as long; the figure printed is the median round's mean per call.
//
// BENCH_SRC=<path to another checkout's src/index.ts> times that code instead, for an A/B run on one machine.
import { cpus, loadavg } from 'node:os';

const x = (await import(process.env.BENCH_SRC ?? '../src/index.js')) as typeof import('../src/index.js');
const { SecretRegistry } = x;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** CPU time per round (and for the warm-up before the rounds). */
const ROUND_MS = ROUNDS <= 1 ? 20 : 300;
/**
 * CPU µs per call of the code before the masking fast paths (README "Masking cost": the same A/B run on 2 shared
 * AMD EPYC cores, Node 20.20.2, load average 23–24), the figures this benchmark's are compared against.
 */
const BASELINE: Record<string, number> = {
  'no secret registered': 0.03,
  '1 secret registered, not in the text': 99,
  '10 secrets registered, none in the text': 2480,
  '1 secret registered, in the text as HTTP Basic': 108,
};

const lines = [
  'commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
  'Author: Dana Scully <dana@example.invalid>',
  'Date:   Sat Nov 28 14:02:11 2026 +0000',
  '    store: lease renewals keep their deadline (b45b3fb4c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7)',
  '"node_modules/zod": {',
  '  "version": "3.23.8",',
  '  "resolved": "https://registry.npmjs.org/zod/-/zod-3.23.8.tgz",',
  '  "integrity": "sha512-XBx9AXhXktjUqnepgTiE5flcKIYWi/rme0Eaj+5Y0lftuGBq+jyRu/md4WnuxqgP1ubdpNCsYEYPxrzVHD8d6g=="',
  '},',
  '2026-11-29T14:55:02.118Z INFO  request 7c9e6679-7425-40de-944b-e07fc1f90ae7 GET /api/conversations 200 3.2ms',
  '2026-11-29T14:55:02.231Z WARN  request 16fd2706-8baf-433b-82eb-8c7f1b2a3c4d retry 2/5 after 250ms',
  'digest: sha256:9b2f6c1e0a4d8e7f3c2b1a0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f size: 1574',
  'export function parseEventFileName(name: string): EventFileName | undefined {',
  '  const match = /^(\\d{8})-([0-9a-f]{32})\\.json$/u.exec(name);',
  '  if (match === null) return undefined;',
  '  return { index: Number(match[1]), id: match[2] as string };',
  '}',
  'drwxr-xr-x  5 root root 4096 Nov 29 14:01 .x',
  '-rw-r--r--  1 root root 1823 Nov 29 14:02 base_state.json',
  'token_type=bearer expires_in=3600 scope=repo,read:org',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpM',
];
/** About 2 KB: the lines above, repeated and cut at 2,048 characters. */
const TEXT = Array.from({ length: 3 }, () => lines.join('\n'))
  .join('\n')
  .slice(0, 2048);

const tokens = [
  'ghp_R3aLlyN0tAT0k3nButL00ks1ik30n3xyzAB',
  'sk-proj-7f3kQ9zLm2VbX8cR1tY6uP0oW4nE5aS',
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'xoxb-2048-4096-8192-abcdefghijklmnop',
  'correct horse battery staple',
  'hunter2-prod-db',
  'glpat-Zx8yW7vU6tS5rQ4pO3nM',
  'npm_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R',
  's3cr3t!pass',
];

interface Case {
  name: string;
  secrets: Record<string, string>;
  text: string;
}

const basic = Buffer.from(`deploy:${tokens[0]}`).toString('base64');
const cases: Case[] = [
  { name: 'no secret registered', secrets: {}, text: TEXT },
  { name: '1 secret registered, not in the text', secrets: { GITHUB_TOKEN: tokens[0] as string }, text: TEXT },
  {
    name: '10 secrets registered, none in the text',
    secrets: Object.fromEntries(tokens.map((token, index) => [`SECRET_${index}`, token])),
    text: TEXT,
  },
  {
    name: '1 secret registered, in the text as HTTP Basic',
    secrets: { GITHUB_TOKEN: tokens[0] as string },
    text: `${TEXT.slice(0, 1900)}\nAuthorization: Basic ${basic}\n${TEXT.slice(1900)}`.slice(0, 2048),
  },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** CPU time (user + system) of the process, in ms: on a shared machine wall time counts other processes' turns. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The mean CPU time of one call, in ms, for each round; a round is as many calls as take about ROUND_MS. */
function time(registry: InstanceType<typeof SecretRegistry>, text: string): number[] {
  let sink = 0;
  let calls = 0;
  const warmed = cpuNow();
  while (calls < 20 || cpuNow() - warmed < ROUND_MS) {
    sink += registry.mask(text).length;
    calls++;
  }
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = cpuNow();
    for (let index = 0; index < calls; index++) sink += registry.mask(text).length;
    rounds.push((cpuNow() - started) / calls);
  }
  if (sink === 0) throw new Error('masking returned nothing');
  return rounds;
}

const [cpu] = cpus();
const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(' ');
console.log(
  `secret masking, ${TEXT.length} characters — node ${process.version}, ${cpu?.model ?? 'unknown cpu'} ×${cpus().length}, load ${load}, ${ROUNDS} rounds of ~${ROUND_MS} ms CPU`,
);
console.log('| case | µs CPU per call (median round) | baseline µs |');
console.log('| --- | --- | --- |');
for (const { name, secrets, text } of cases) {
  const registry = new SecretRegistry(secrets);
  const masked = registry.mask(text);
  // A registered value in the text must be hidden, and nothing else touched: a fast wrong answer is no figure.
  const expected = name.includes('in the text as') ? text.replace(basic, '<secret-hidden>') : text;
  if (masked !== expected) throw new Error(`${name}: masking gave a different text`);
  const perCall = median(time(registry, text));
  const baseline = BASELINE[name];
  console.log(`| ${name} | ${(perCall * 1000).toFixed(2)} | ${baseline === undefined ? '—' : baseline.toFixed(2)} |`);
}
