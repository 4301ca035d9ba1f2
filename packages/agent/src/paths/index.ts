export { type ConfinedPath, confineToRoots, isPathInside, resolveRealLocation } from './confine-to-roots.js';
export {
  describeKind,
  entryKind,
  type OpenedRegularFile,
  openRegularFile,
  readRegularFile,
} from './regular-file.js';
export { type FileContent, replaceFileAtomically } from './replace-file.js';
export { openOrCreateDirectory, openVerifiedDirectory, type VerifiedDirectory } from './verified-directory.js';
export {
  type WalkedFile,
  type WalkIgnore,
  type WalkOptions,
  type WalkResult,
  walkWorkspaceFiles,
} from './walk-workspace-files.js';
export { resolveWorkspaceDirectory, type WorkspaceDirectory } from './workspace-directory.js';
export { checkPathText, openWorkspaceEntry, type WorkspaceEntry } from './workspace-entry.js';
export { WorkspacePathError, type WorkspacePathProblem } from './workspace-path-error.js';
