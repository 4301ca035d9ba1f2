import { useMemo } from 'preact/hooks';
import { familyGraph, type GraphNode } from './family-graph.js';
import { layoutTree } from './tree-layout.js';
import { useFamily } from './use-family.js';

const COLUMN = 190;
const ROW = 44;
const NODE_WIDTH = 164;
const NODE_HEIGHT = 30;
const PAD = 8;
const LABEL_CHARS = 24;

function clip(text: string): string {
  return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
}

function Node({ node, x, y }: { node: GraphNode; x: number; y: number }) {
  return (
    <a
      href={node.href}
      class={`node node-${node.kind}${node.current ? ' current' : ''}`}
      data-node-key={node.key}
      aria-label={node.title}
    >
      <title>{node.title}</title>
      <rect x={x} y={y} width={NODE_WIDTH} height={NODE_HEIGHT} rx={node.kind === 'segment' ? 15 : 5} />
      <text x={x + 10} y={y + NODE_HEIGHT / 2 + 4}>
        {clip(node.label)}
      </text>
    </a>
  );
}

/**
 * The conversation family as an inline SVG tree, drawn left to right: conversations (square corners), their
 * branch segments (rounded; HEAD's branch of this conversation highlighted), forks (dashed edges) and sub-agent
 * conversations (dotted edges). Every node is a link: a conversation opens it, a segment opens the
 * conversation at the segment's last event, a sub-agent opens its read-only log.
 */
export function TreeGraph({ conversationId, version }: { conversationId: string; version: unknown }) {
  const family = useFamily(conversationId, version);
  const graph = useMemo(() => familyGraph(family.conversations, conversationId), [family, conversationId]);
  const placed = useMemo(
    () =>
      layoutTree(
        graph.nodes.map((node) => node.key),
        graph.edges,
      ),
    [graph],
  );
  if (family.error !== undefined) return <p class="error">Tree unavailable: {family.error}</p>;
  if (graph.nodes.length === 0) return <p class="muted">Loading the tree…</p>;
  let columns = 0;
  let rows = 0;
  for (const { column, row } of placed.values()) {
    columns = Math.max(columns, column + 1);
    rows = Math.max(rows, row + 1);
  }
  const at = (key: string) => {
    const place = placed.get(key) ?? { column: 0, row: 0 };
    return { x: PAD + place.column * COLUMN, y: PAD + place.row * ROW };
  };
  const width = PAD * 2 + (columns - 1) * COLUMN + NODE_WIDTH;
  const height = PAD * 2 + (rows - 1) * ROW + NODE_HEIGHT;
  return (
    <figure class="tree-graph">
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label="Conversation tree: branches, forks and sub-agents"
      >
        {graph.edges.map((edge) => {
          const from = at(edge.from);
          const to = at(edge.to);
          const x1 = from.x + NODE_WIDTH;
          const y1 = from.y + NODE_HEIGHT / 2;
          const x2 = to.x;
          const y2 = to.y + NODE_HEIGHT / 2;
          const middle = (x1 + x2) / 2;
          return (
            <path
              key={`${edge.from}>${edge.to}`}
              class={`edge edge-${edge.kind}`}
              data-edge={`${edge.from}>${edge.to}`}
              data-kind={edge.kind}
              d={`M${x1},${y1} C${middle},${y1} ${middle},${y2} ${x2},${y2}`}
            />
          );
        })}
        {graph.nodes.map((node) => {
          const { x, y } = at(node.key);
          return <Node key={node.key} node={node} x={x} y={y} />;
        })}
      </svg>
      {family.truncated ? <figcaption>Only the first conversations of this family are drawn.</figcaption> : null}
    </figure>
  );
}
