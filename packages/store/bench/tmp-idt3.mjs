import { PathIdTable } from '../dist/event-log/path-id-table.js';
import { eventFileName, pathHasEventId } from '../dist/event-log/file-names.js';
const paths = Array.from({ length: 100000 }, (_, i) => `f40c9364e494473b86db0d166a339592/events/${eventFileName(i, crypto.randomUUID())}`);
for (const p of paths) Number(p);
for (let r = 0; r < 4; r++) {
  let t = performance.now();
  new PathIdTable().find(paths, 'x');
  const a = performance.now() - t;
  t = performance.now();
  let h = 0; for (const p of paths) { for (let c = p.length - 41; c < p.length - 5; c++) h = Math.imul(h ^ p.charCodeAt(c), 16777619); }
  const b = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < paths.length; i++) if (pathHasEventId(paths[i], 'zz')) break;
  console.log('table', a.toFixed(1), 'plain hash loop', b.toFixed(1), 'scan', (performance.now() - t).toFixed(1), h);
}
