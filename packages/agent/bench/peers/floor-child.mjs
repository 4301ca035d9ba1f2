// The floor under both sides of the peer benchmark (peers.bench.ts): a process of plain `node` that imports zod
// (which x and the SDK both need, for the tool's schema) and does nothing else. No framework can use less CPU
// than this for a whole process, so it bounds how low the whole-process ratio can go at a few steps.
const importStart = performance.now();
await import('zod');
const importMs = performance.now() - importStart;
const { user, system } = process.cpuUsage();
process.stdout.write(`${JSON.stringify({ importMs, loopMs: 0, cpuMs: (user + system) / 1000 })}\n`);
