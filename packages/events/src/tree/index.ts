export { activeBranch } from './active-branch.js';
export { EventTree, isTreeArtifactKind, parentForAppend, type TreeNodeInput } from './event-tree.js';
