export { EventTree, isTreeArtifactKind, parentForAppend, type TreeNodeInput } from './event-tree.js';
export { activeBranch } from './active-branch.js';
