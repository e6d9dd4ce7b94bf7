// The MessagePack size of a JSON value, counted by the format's rules one type at a time, for
// comparison with the packed size that api/event.ts bounds metadata by. Integers that fit no
// 32-bit form take 9 bytes (msgpackr writes them as float64), as does every number with a fraction.

function headerBytes(count: number, fixMax: number): number {
  return count <= fixMax ? 1 : count < 0x10000 ? 3 : 5;
}

function numberBytes(n: number): number {
  if (!Number.isInteger(n)) return 9;
  if (n >= 0) return n < 0x80 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : n <= 0xffffffff ? 5 : 9;
  return n >= -32 ? 1 : n >= -0x80 ? 2 : n >= -0x8000 ? 3 : n >= -0x80000000 ? 5 : 9;
}

function stringBytes(s: string): number {
  const n = Buffer.byteLength(s);
  return n + (n < 32 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5);
}

export function msgpackSize(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'number') return numberBytes(value);
  if (typeof value === 'string') return stringBytes(value);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + msgpackSize(item), headerBytes(value.length, 15));
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.reduce((sum, [key, item]) => sum + stringBytes(key) + msgpackSize(item), headerBytes(entries.length, 15));
}
