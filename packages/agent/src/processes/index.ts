export { descendantPids, killProcessTree } from './kill-process-tree.js';
export { whenSpawned } from './when-spawned.js';
