// Types of node-lines.mjs, for the TypeScript that imports it (packages/agent/bench/peers.bench.ts).
export declare const extraNodeLines: string[];
/** The path of a `node` binary of release line `major`, installing it first when it is missing. */
export declare function ensureNode(major: string): string;
