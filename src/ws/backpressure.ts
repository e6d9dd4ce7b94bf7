// When a socket is too far behind for optional pushes, when it may have them again, and when it has
// stalled for good. uWS's own maxBackpressure is the hard limit: a send past it is dropped and, with
// closeOnBackpressureLimit, the socket closed. Below it, two watermarks give hysteresis:
//   buffered > high (½ max): live pushes skip this socket (not queued: it gets the latest list later)
//   buffered ≤ low  (¼ max): pushes resume, starting with the lists it missed (uWS `drain`)
// A socket that stays behind longer than the stall timeout never drains: it is closed.

export class BackpressurePolicy {
  readonly high: number;
  readonly low: number;

  constructor(
    /** uWS maxBackpressure, bytes. */
    readonly maxBytes: number,
    readonly stallMs: number,
  ) {
    this.high = Math.floor(maxBytes / 2);
    this.low = Math.floor(maxBytes / 4);
  }

  /** Optional pushes stop above the high watermark. */
  shouldSkip(bufferedBytes: number): boolean {
    return bufferedBytes > this.high;
  }

  canResume(bufferedBytes: number): boolean {
    return bufferedBytes <= this.low;
  }

  stalled(behindSinceMs: number, nowMs: number): boolean {
    return nowMs - behindSinceMs >= this.stallMs;
  }
}
