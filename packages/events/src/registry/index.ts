export {
  type FinishAction,
  finishActionSchema,
  finishObservationSchema,
  THINK_OBSERVATION_TEXT,
  type ThinkAction,
  thinkActionSchema,
  thinkObservationSchema,
} from './builtin-kinds.js';
export {
  defaultEventRegistry,
  getActionKindOptions,
  getEventKindOptions,
  getObservationKindOptions,
  registerActionKind,
  registerEventKind,
  registerObservationKind,
} from './default-registry.js';
export {
  type ActionKindOptions,
  type CustomEventOf,
  createEventRegistry,
  type EventKindHandle,
  type EventKindOptions,
  type EventRegistry,
  type ObjectSchema,
  type ObservationKindOptions,
} from './event-registry.js';
export {
  maybeTruncate,
  maybeTruncatePersisted,
  type PersistedTruncateOptions,
  savedOutputPath,
  truncateNotice,
} from './reference-kinds/maybe-truncate.js';
export {
  maxCommandOutputSize,
  terminalLlmContent,
  terminalObservationReadSchema,
} from './reference-kinds/terminal-observation-kind.js';
export {
  browserLlmContent,
  browserObservationReadSchema,
  consultTomLlmContent,
  consultTomObservationReadSchema,
  sleeptimeComputeLlmContent,
  sleeptimeComputeObservationReadSchema,
  taskLlmContent,
  taskObservationReadSchema,
} from './reference-kinds/tool-observation-kinds.js';
export {
  applyPatchActionSchema,
  applyPatchObservationSchema,
  fileChangeReadSchema,
  globActionSchema,
  globObservationSchema,
  grepActionSchema,
  grepObservationSchema,
  invokeSkillActionSchema,
  invokeSkillObservationSchema,
} from './reference-kinds/workspace-tool-kinds.js';
