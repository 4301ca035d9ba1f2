export { assertBindAllowed, isLoopbackHost } from './bind-policy.js';
export { DataDirExposedError } from './data-dir-exposed-error.js';
export { assertDataDirOutsideWorkspaces, assertOutsideSystemDirectories } from './data-dir-policy.js';
export {
  createHostOriginCheck,
  defaultHostNames,
  type HostOriginPolicy,
  type HostOriginProblem,
  type HostOriginRefusal,
  normalizeOrigin,
  parseAuthority,
} from './host-origin.js';
export { InsecureBindError } from './insecure-bind-error.js';
export { installHostOriginCheck } from './install-host-origin-check.js';
export { REDACTED, redactHeaders, redactingLoggerOptions, redactUrl } from './log-redaction.js';
export { actAs, type Caller, callerOfKey, currentCaller, principalOfKey } from './request-caller.js';
export { installRouteAuth, isPublicRoute, makeScopePublic, type PublicRouteConfig } from './route-auth.js';
export { SystemDirectoryExposedError } from './system-directory-exposed-error.js';
