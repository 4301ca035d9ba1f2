export {
  type CheckpointFile,
  type CheckpointManifest,
  checkpointFileSchema,
  checkpointId,
  checkpointManifestSchema,
  type SkippedFile,
} from './checkpoint-manifest.js';
export { CHECKPOINT_KEY, type CheckpointRecord, checkpointRecordSchema } from './checkpoint-records.js';
export { CHECKPOINTS_DIR, CheckpointStore } from './checkpoint-store.js';
export { CheckpointDamagedError } from './errors/checkpoint-damaged-error.js';
export { CheckpointWriteError } from './errors/checkpoint-write-error.js';
export { type RestoreResult, restoreWorkspace } from './restore-workspace.js';
export { WorkspaceCheckpoints } from './workspace-checkpoints.js';
export { IGNORED_NAMES, snapshotWorkspace } from './workspace-snapshot.js';
