import { getHeapSnapshot, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Counts the live objects of each named class in a V8 heap snapshot (taking one collects garbage first, so
 * only what is still reachable is counted). Slow (a second or two): for memory tests, not for loops.
 */
export async function countHeapObjects(classNames: readonly string[]): Promise<Record<string, number>> {
  const chunks: string[] = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(typeof chunk === 'string' ? chunk : chunk.toString());
  const snapshot = JSON.parse(chunks.join('')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const width = fields.length;
  const typeField = fields.indexOf('type');
  const nameField = fields.indexOf('name');
  const objectType = snapshot.snapshot.meta.node_types[0].indexOf('object');
  const wanted = new Map(classNames.map((name) => [name, 0]));
  for (let node = 0; node < snapshot.nodes.length; node += width) {
    if (snapshot.nodes[node + typeField] !== objectType) continue;
    const name = snapshot.strings[snapshot.nodes[node + nameField] as number] as string;
    const count = wanted.get(name);
    if (count !== undefined) wanted.set(name, count + 1);
  }
  return Object.fromEntries(wanted);
}

/**
 * Collects garbage now, weak references included: waits one turn of the event loop first, since V8 keeps the
 * target of a weak reference read during the current turn alive until that turn ends.
 */
export async function collectGarbage(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
