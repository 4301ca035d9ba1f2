import { PathIdTable } from '../dist/event-log/path-id-table.js';
import { eventFileName } from '../dist/event-log/file-names.js';
import { writeFileSync, readFileSync } from 'node:fs';
const mode = process.argv[2];
if (mode === 'make') { writeFileSync('/tmp/ni-names.txt', 'HEADER\n' + Array.from({ length: 100000 }, (_, i) => eventFileName(i, crypto.randomUUID())).join('\n') + '\n'); process.exit(0); }
const text = readFileSync('/tmp/ni-names.txt', 'utf8');
const prefix = 'f40c9364e494473b86db0d166a339592/events/';
const c0 = process.cpuUsage(); const h0 = process.memoryUsage().heapUsed;
let paths;
if (mode === 'concat') { paths = text.slice(7, -1).split('\n'); for (let i = 0; i < paths.length; i++) paths[i] = prefix + paths[i]; }
else { paths = (prefix + text.slice(7, -1).replaceAll('\n', '\n' + prefix)).split('\n'); }
const c1 = process.cpuUsage(c0);
const table = new PathIdTable(); table.find(paths, 'xxxxx');
const c2 = process.cpuUsage(c0);
const t3 = performance.now(); for (let k = 0; k < 10; k++) table.find(paths, 'xxxx' + k); const per = (performance.now() - t3) / 10;
globalThis.gc();
console.log(mode, 'paths cpu', ((c1.user + c1.system) / 1000).toFixed(1), 'table cpu', ((c2.user + c2.system - c1.user - c1.system) / 1000).toFixed(1), 'per find', per.toFixed(2), 'heap +', ((process.memoryUsage().heapUsed - h0) / 2 ** 20).toFixed(1), paths.length, paths[3].length);
