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
export { arbitraryFromSchema, arbitraryJsonValue, arbitraryText, type FieldOverrides } from './zod-arbitrary.js';
