import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** mulberry32: a tiny seeded PRNG, so a failing fuzz case can be replayed from its seed. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number): number => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}

export type Random = ReturnType<typeof createRandom>;

/** Every event document of the package's fixtures (reference conversations and the format appendix). */
export function loadFixtureEvents(fixturesDir: string): Record<string, unknown>[] {
  const documents: Record<string, unknown>[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/^(event-.*|\d\d-.*)\.json$/.test(entry.name)) documents.push(JSON.parse(readFileSync(path, 'utf8')));
    }
  };
  visit(fixturesDir);
  return documents;
}

/** Names every plain object inherits: a registry keyed by a plain object would find these. */
export const PROTOTYPE_NAMES = [
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
  'length',
  'call',
  'apply',
  'bind',
  'then',
];

const KNOWN_KINDS = [
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'SystemPromptEvent',
  'AgentErrorEvent',
  'UserRejectObservation',
  'Condensation',
  'CondensationRequest',
  'CondensationSummaryEvent',
  'ConversationStateUpdateEvent',
  'ConversationErrorEvent',
  'PauseEvent',
  'OpaqueEvent',
  'FinishAction',
  'ThinkAction',
  'FinishObservation',
  'ThinkObservation',
];

/** A value of a random JSON type, sometimes large or deep. */
function randomValue(random: Random, deepTexts: string[], allowBig = true): unknown {
  switch (random.int(12)) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1]);
    case 3:
      return random.pick(['', 'x', '\u0000', '\ud800', 'é', '../..', '__proto__', 'constructor']);
    case 4:
      return random.pick(PROTOTYPE_NAMES);
    case 5:
      return [];
    case 6:
      return {};
    case 7:
      return [randomValue(random, deepTexts, false), randomValue(random, deepTexts, false)];
    case 8:
      return withProtoKey({ polluted: true, kind: random.pick(PROTOTYPE_NAMES) });
    case 9:
      return allowBig && random.chance(0.15) ? 'A'.repeat(100_000 + random.int(400_000)) : 'y'.repeat(random.int(300));
    case 10:
      return allowBig ? deepValue(random, deepTexts) : 1;
    default:
      return random.pick(KNOWN_KINDS);
  }
}

/** An object with an own `__proto__` key (what `JSON.parse('{"__proto__": …}')` makes). */
export function withProtoKey(payload: Record<string, unknown>): Record<string, unknown> {
  const target: Record<string, unknown> = {};
  Object.defineProperty(target, '__proto__', { value: payload, enumerable: true, writable: true, configurable: true });
  return target;
}

/**
 * Nested arrays/objects as JSON text (JSON.stringify itself overflows on thousands of levels):
 * sometimes just under the limit, sometimes just over, sometimes thousands of levels. Returns a
 * marker string that `mutateDocument` replaces with the text.
 */
function deepValue(random: Random, deepTexts: string[]): string {
  const depth = random.pick([random.int(600), 505 + random.int(15), 505 + random.int(15), 1000 + random.int(1500)]);
  const open: string[] = [];
  const close: string[] = [];
  for (let level = 0; level < depth; level++) {
    const shape = random.int(10);
    if (shape < 5) {
      open.push('[');
      close.push(']');
    } else if (shape < 6) {
      open.push('{"__proto__":{"polluted":true},"inner":');
      close.push('}');
    } else {
      open.push('{"n":null,"a":');
      close.push('}');
    }
  }
  deepTexts.push(`${open.join('')}${random.chance(0.5) ? '"leaf"' : 'null'}${close.reverse().join('')}`);
  return `@@deep-${deepTexts.length - 1}@@`;
}

/** The containers (objects and arrays) inside `value`, with their parent chain length. */
function containers(value: unknown): { node: Record<string, unknown> | unknown[]; depth: number }[] {
  const found: { node: Record<string, unknown> | unknown[]; depth: number }[] = [];
  const pending: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (pending.length > 0 && found.length < 400) {
    const { node, depth } = pending.pop()!;
    if (node === null || typeof node !== 'object' || depth > 40) continue;
    found.push({ node: node as Record<string, unknown>, depth });
    for (const child of Object.values(node)) pending.push({ node: child, depth: depth + 1 });
  }
  return found;
}

function setField(target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** One structural mutation of `document` (mutated in place). */
function mutateOnce(random: Random, document: Record<string, unknown>, deepTexts: string[]): void {
  const all = containers(document);
  const { node } = random.pick(all);
  const keys = Object.keys(node);
  const key: string | number = Array.isArray(node)
    ? random.int(node.length + 1)
    : keys.length > 0 && random.chance(0.8)
      ? random.pick(keys)
      : random.pick(['kind', 'id', 'action', 'observation', 'llm_message', 'value', 'metadata', '__proto__']);
  switch (random.int(9)) {
    case 0:
      setField(document, 'kind', random.chance(0.6) ? random.pick(PROTOTYPE_NAMES) : randomValue(random, deepTexts));
      return;
    case 1: {
      const payload = document.action ?? document.observation;
      if (payload !== null && typeof payload === 'object')
        setField(payload as Record<string, unknown>, 'kind', random.pick(PROTOTYPE_NAMES));
      else
        setField(
          document,
          random.pick(['action', 'observation']),
          withProtoKey({ kind: random.pick(PROTOTYPE_NAMES) }),
        );
      return;
    }
    case 2:
      if (Array.isArray(node)) node.splice(Number(key), 1);
      else delete node[key as string];
      return;
    case 3:
      setField(node, key, randomValue(random, deepTexts));
      return;
    case 4:
      if (random.chance(0.3)) setField(node, key, deepValue(random, deepTexts));
      else setField(node, key, randomValue(random, deepTexts));
      return;
    case 5:
      setField(node, '__proto__', withProtoKey({ polluted: true }));
      return;
    case 6:
      setField(node, 'constructor', { prototype: { polluted: true } });
      return;
    case 7:
      setField(node, key, null);
      return;
    default:
      setField(document, random.pick(['id', 'timestamp', 'source', 'parent_id']), randomValue(random, deepTexts));
  }
}

/** A mutated copy of `base` as JSON text, sometimes also damaged as text (truncated, bytes changed). */
export function mutateDocument(random: Random, base: Record<string, unknown>): string {
  const document = structuredClone(base);
  const deepTexts: string[] = [];
  const count = 1 + random.int(4);
  for (let i = 0; i < count; i++) mutateOnce(random, document, deepTexts);
  let text = JSON.stringify(document);
  if (deepTexts.length > 0) text = text.replace(/"@@deep-(\d+)@@"/g, (_, index: string) => deepTexts[Number(index)]!);
  if (random.chance(0.05)) text = text.slice(0, random.int(text.length));
  if (random.chance(0.05)) {
    const at = random.int(text.length);
    text = `${text.slice(0, at)}${random.pick(['"', '{', ']', '\\', '\u0000', ','])}${text.slice(at + 1)}`;
  }
  return text;
}
