import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';

export interface RawUpgradeResult {
  /** HTTP status of the upgrade answer (101 when accepted), 0 when the server closed without one. */
  status: number;
  /** Text frames received before the close frame. */
  frames: string[];
  /** The close code the server sent, if it sent one. */
  closeCode?: number;
}

/** A masked client text frame (RFC 6455 §5.2), payload under 64 KiB. */
function clientTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = randomBytes(4);
  const header =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] ?? 0)));
  return Buffer.concat([header, mask, masked]);
}

/**
 * A WebSocket upgrade over a raw TCP socket with the request target sent verbatim. When the upgrade is
 * accepted, `firstFrame` (if any) is sent and the frames are read until the server closes the socket;
 * without `firstFrame` the socket is ended by us after `readFor` frames (default: none) arrived.
 */
export function rawUpgrade(
  port: number,
  target: string,
  options: { headers?: Record<string, string>; firstFrame?: string; readFrames?: number } = {},
): Promise<RawUpgradeResult> {
  const headers: Record<string, string> = {
    Host: `127.0.0.1:${port}`,
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
    'Sec-WebSocket-Version': '13',
    ...options.headers,
  };
  const head = [`GET ${target} HTTP/1.1`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    let status: number | undefined;
    const frames: string[] = [];
    let closeCode: number | undefined;
    const finish = (): void => {
      socket.destroy();
      resolve({ status: status ?? 0, frames, ...(closeCode === undefined ? {} : { closeCode }) });
    };
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (status === undefined) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        status = Number(buffer.subarray(0, end).toString('latin1').split(' ')[1] ?? 0);
        buffer = buffer.subarray(end + 4);
        if (status !== 101) return;
        if (options.firstFrame !== undefined) socket.write(clientTextFrame(options.firstFrame));
      }
      // Server frames are unmasked: [fin|opcode][len] [ext len] payload.
      while (buffer.length >= 2) {
        const opcode = (buffer[0] ?? 0) & 0x0f;
        let length = (buffer[1] ?? 0) & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + length) return;
        const payload = buffer.subarray(offset, offset + length);
        buffer = buffer.subarray(offset + length);
        if (opcode === 0x1) frames.push(payload.toString('utf8'));
        if (opcode === 0x8) {
          closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
          finish();
          return;
        }
        if (options.readFrames !== undefined && frames.length >= options.readFrames) {
          finish();
          return;
        }
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET') finish();
      else reject(error);
    });
    socket.on('close', finish);
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
  });
}
