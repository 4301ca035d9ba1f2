/** Upgrade response header by which our event socket says it understands `from_index` (an x extension). */
export const RESUME_HEADER = 'x-event-stream-resume';
