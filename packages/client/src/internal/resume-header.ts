/**
 * Upgrade response header by which an x server says its event socket understands `from_index` (an x
 * extension; the server's `websocket/resume-header.ts` sends it). Only readable where the upgrade's headers
 * are (the `ws` package); a browser's WebSocket hides them.
 */
export const RESUME_HEADER = 'x-event-stream-resume';
