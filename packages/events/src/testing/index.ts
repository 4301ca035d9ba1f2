export {
  arbitraryAction,
  arbitraryEvent,
  arbitraryEventId,
  arbitraryEventOfKind,
  arbitraryMessage,
  arbitraryObservation,
  arbitraryOpaqueEventJson,
  arbitraryTimestamp,
  builtinEventKinds,
} from './event-arbitraries.js';
export {
  type FieldSet,
  type FieldSets,
  type FieldStatus,
  fieldSetProblems,
  payloadProblems,
} from './field-set-problems.js';
export { arbitraryFromSchema, arbitraryJsonValue, arbitraryText, type FieldOverrides } from './zod-arbitrary.js';
