export { createReadOnlyOverlay } from './read-only-overlay.js';
export { createViewStore, hexFor, metaFromBaseState, type ViewedDirectory } from './view-store.js';
