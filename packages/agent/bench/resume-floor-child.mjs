// The floor of bench/resume.bench.ts's uncondensed row: what any reader that materialises a conversation's
// events pays at least. A plain node process (nothing imported but node:fs) reads every pack of the log
// (events/.slots/packs, as the resume reads them: one read each) and JSON.parses its header and body, keeping
// every parsed value to the end, as a resume keeps the events it shows the model. No validation, no freezing,
// no view, no messages, no model: the time and the peak RSS of reading and parsing alone.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { peakRssBytes } from './peak-rss.mjs';

const [packs] = process.argv.slice(2);
const cpuBefore = process.cpuUsage();
const start = performance.now();
const kept = [];
let events = 0;
for (const name of readdirSync(packs).sort()) {
  if (!name.endsWith('.pack')) continue;
  const bytes = readFileSync(join(packs, name));
  const newline = bytes.indexOf(10);
  const header = JSON.parse(bytes.toString('utf8', 0, newline));
  const body = JSON.parse(bytes.toString('utf8', newline + 1));
  events += body.length;
  kept.push(header, body);
}
const elapsed = performance.now() - start;
const cpuUsed = process.cpuUsage(cpuBefore);
const peak = peakRssBytes();
console.log(
  JSON.stringify({ elapsed, cpu: (cpuUsed.user + cpuUsed.system) / 1000, rss: peak, events, kept: kept.length }),
);
