export { descendantPids, killProcessTree } from './kill-process-tree.js';
