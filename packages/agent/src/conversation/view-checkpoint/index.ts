export { buildViewCheckpoint, buildViewCheckpointText, writeViewCheckpoint } from './build-view-checkpoint.js';
export { isOnBranch, restoreView } from './restore-view.js';
export { VIEW_CHECKPOINT_FILE, type ViewCheckpoint, viewCheckpointSchema } from './view-checkpoint-file.js';
