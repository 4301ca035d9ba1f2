import type { GraphEdge } from './family-graph.js';

export interface Placed {
  /** Column (depth from the root). */
  column: number;
  /** Row, possibly fractional: a parent sits midway between its first and last child. */
  row: number;
}

/**
 * A left-to-right tree layout: depth gives the column, leaves take consecutive rows in edge order and each
 * parent is centred on its children. Nodes without an incoming edge are roots, laid out one after another.
 * Linear in nodes + edges; an edge that would close a cycle is ignored.
 */
export function layoutTree(keys: readonly string[], edges: readonly GraphEdge[]): Map<string, Placed> {
  const children = new Map<string, string[]>();
  const hasParent = new Set<string>();
  const known = new Set(keys);
  for (const edge of edges) {
    if (!known.has(edge.from) || !known.has(edge.to) || hasParent.has(edge.to)) continue;
    hasParent.add(edge.to);
    const list = children.get(edge.from) ?? [];
    list.push(edge.to);
    children.set(edge.from, list);
  }
  const placed = new Map<string, Placed>();
  let nextRow = 0;
  const place = (key: string, column: number): number => {
    placed.set(key, { column, row: 0 });
    const rows = (children.get(key) ?? [])
      .filter((child) => !placed.has(child))
      .map((child) => place(child, column + 1));
    const first = rows[0];
    const last = rows[rows.length - 1];
    const row = first === undefined || last === undefined ? nextRow++ : (first + last) / 2;
    placed.set(key, { column, row });
    return row;
  };
  for (const key of keys) if (!hasParent.has(key) && !placed.has(key)) place(key, 0);
  // Whatever is left sits on a cycle: lay it out from its first node so nothing is dropped.
  for (const key of keys) if (!placed.has(key)) place(key, 0);
  return placed;
}
