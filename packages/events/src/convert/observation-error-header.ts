/** Prefix the reference puts before the content of an observation with `is_error` (§3.6). */
export const OBSERVATION_ERROR_HEADER = '[An error occurred during execution.]\n';
