// WebSocket frames as bytes (RFC 6455 §5.2), for what a WebSocket client will not send: reserved
// bits, unknown opcodes, unmasked client frames, lying lengths, broken fragmentation. Builds client
// frames and reads the server's (unmasked) ones.
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface RawFrame {
  fin: boolean;
  /** The three reserved bits, 0-7. */
  rsv: number;
  opcode: number;
  masked: boolean;
  /** The masking key (4 bytes); random when absent. */
  mask?: Uint8Array;
  payload: Buffer;
  /** How the length is written: the shortest form, a longer form than needed, or a length that is not the payload's. */
  length?: 'shortest' | '16-bit' | '64-bit' | { claimed: number };
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export function websocketAccept(key: string): string {
  return createHash('sha1').update(key + GUID).digest('base64');
}

export function websocketKey(): string {
  return randomBytes(16).toString('base64');
}

export function encodeFrame(frame: RawFrame): Buffer {
  const length = typeof frame.length === 'object' ? frame.length.claimed : frame.payload.length;
  const form = typeof frame.length === 'object' ? (length < 126 ? 'shortest' : length < 65_536 ? '16-bit' : '64-bit') : (frame.length ?? 'shortest');
  const head: number[] = [(frame.fin ? 0x80 : 0) | ((frame.rsv & 7) << 4) | (frame.opcode & 0x0f)];
  const maskBit = frame.masked ? 0x80 : 0;
  if (form === 'shortest' && length < 126) head.push(maskBit | length);
  else if (form !== '64-bit' && length < 65_536) head.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    head.push(maskBit | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    head.push(...big);
  }
  if (!frame.masked) return Buffer.concat([Buffer.from(head), frame.payload]);
  const mask = frame.mask ?? randomBytes(4);
  const masked = Buffer.from(frame.payload);
  for (let i = 0; i < masked.length; i++) masked[i]! ^= mask[i & 3]!;
  return Buffer.concat([Buffer.from(head), mask, masked]);
}

export interface ServerFrame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
  /** The server masked it (it must not). */
  masked: boolean;
}

/** Splits the server's bytes into complete frames; `rest` is an incomplete tail. */
export function decodeFrames(data: Buffer): { frames: ServerFrame[]; rest: Buffer } {
  const frames: ServerFrame[] = [];
  let at = 0;
  while (data.length - at >= 2) {
    const b0 = data[at]!;
    const b1 = data[at + 1]!;
    let length = b1 & 0x7f;
    let offset = at + 2;
    if (length === 126) {
      if (data.length < offset + 2) break;
      length = data.readUInt16BE(offset);
      offset += 2;
    } else if (length === 127) {
      if (data.length < offset + 8) break;
      length = Number(data.readBigUInt64BE(offset));
      offset += 8;
    }
    const masked = (b1 & 0x80) !== 0;
    if (masked) offset += 4;
    if (data.length < offset + length) break;
    frames.push({ fin: (b0 & 0x80) !== 0, opcode: b0 & 0x0f, payload: data.subarray(offset, offset + length), masked });
    at = offset + length;
  }
  return { frames, rest: data.subarray(at) };
}

/** A WebSocket over a bare TCP socket: the upgrade written by hand, then frames in both directions as bytes. */
export class RawStream {
  readonly frames: ServerFrame[] = [];
  closed = false;
  #rest = Buffer.alloc(0);
  #wake: (() => void) | undefined;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      const { frames, rest } = decodeFrames(Buffer.concat([this.#rest, chunk]));
      this.frames.push(...frames);
      this.#rest = rest;
      this.#wake?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.#wake?.();
    });
    socket.on('error', () => {});
  }

  /** Upgrades GET `target` with a fresh key; rejects with what came back when that is not a 101 with the right accept value. */
  static open(port: number, target: string, headers: readonly [string, string][] = []): Promise<RawStream> {
    const key = websocketKey();
    const socket = connect(port, '127.0.0.1');
    let head = `GET ${target} HTTP/1.1\r\nHost: fuzz.test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n`;
    for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
    socket.write(head + '\r\n');
    return new Promise((resolve, reject) => {
      let data = Buffer.alloc(0);
      const onData = (chunk: Buffer): void => {
        data = Buffer.concat([data, chunk]);
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onData);
        const text = data.subarray(0, end).toString('latin1');
        if (!text.startsWith('HTTP/1.1 101 ') || !text.toLowerCase().includes(`sec-websocket-accept: ${websocketAccept(key).toLowerCase()}`)) {
          socket.destroy();
          reject(new Error(`upgrade refused: ${data.toString('latin1').slice(0, 500)}`));
          return;
        }
        const stream = new RawStream(socket);
        if (data.length > end + 4) socket.emit('data', data.subarray(end + 4));
        resolve(stream);
      };
      socket.on('data', onData);
      socket.once('error', reject);
    });
  }

  write(bytes: Buffer): void {
    if (!this.closed) this.socket.write(bytes);
  }

  /** Resolves once `done(frames)` holds, the connection closed, or `ms` passed (then `timedOut`). */
  async waitFor(done: (frames: readonly ServerFrame[]) => boolean, ms: number): Promise<{ timedOut: boolean }> {
    const deadline = Date.now() + ms;
    while (!done(this.frames) && !this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) return { timedOut: true };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return { timedOut: false };
  }

  destroy(): void {
    this.socket.destroy();
  }
}
