import { PathIdTable } from '../dist/event-log/path-id-table.js';
import { eventFileName, pathHasEventId } from '../dist/event-log/file-names.js';
const paths = Array.from({ length: 100000 }, (_, i) => `f40c9364e494473b86db0d166a339592/events/${eventFileName(i, crypto.randomUUID())}`);
let t = performance.now();
const table = new PathIdTable();
table.find(paths, 'x');
console.log('build+find', (performance.now() - t).toFixed(1));
t = performance.now();
for (let k = 0; k < 5; k++) table.find(paths, 'y' + k);
console.log('5 finds', (performance.now() - t).toFixed(2));
t = performance.now();
for (let k = 0; k < 3; k++) { for (let i = 0; i < paths.length; i++) if (pathHasEventId(paths[i], 'zz')) break; }
console.log('3 scans', (performance.now() - t).toFixed(1));
