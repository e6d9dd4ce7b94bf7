// The plainest choice of a proxied request's client, for comparison with src/limits/proxied-client.ts:
// the hops as data rather than header text, trust decided by node's own net.BlockList, one walk from
// the right. It answers which hop is the client, not its spelling.
import { BlockList } from 'node:net';

/** An address as the tests draw it: IPv4 as 4 bytes, IPv6 as 8 groups. */
export type Address = { family: 'ipv4'; bytes: readonly number[] } | { family: 'ipv6'; groups: readonly number[] };

export interface TrustedRange {
  network: Address;
  prefix: number;
}

/** The address as BlockList reads it. */
export function plainText(address: Address): string {
  return address.family === 'ipv4' ? address.bytes.join('.') : address.groups.map((group) => group.toString(16)).join(':');
}

export function referenceTrust(ranges: readonly TrustedRange[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) list.addSubnet(plainText(range.network), range.prefix, range.network.family);
  return list;
}

export function isTrusted(list: BlockList, address: Address): boolean {
  return list.check(plainText(address), address.family);
}

/** What the client is: the peer, the hop at `index`, or no one usable (the header names no address there). */
export type ReferenceClient = { kind: 'peer' } | { kind: 'hop'; index: number } | { kind: 'unusable' };

/**
 * `hops` is undefined when no header was sent, 'malformed' when the one used does not parse; a hop
 * that names no address is undefined.
 */
export function referenceClient(peer: Address, hops: readonly (Address | undefined)[] | 'malformed' | undefined, trusted: BlockList): ReferenceClient {
  if (hops === undefined || !isTrusted(trusted, peer)) return { kind: 'peer' };
  if (hops === 'malformed' || hops.length === 0) return { kind: 'unusable' };
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index];
    if (hop === undefined) return { kind: 'unusable' };
    if (!isTrusted(trusted, hop)) return { kind: 'hop', index };
  }
  return { kind: 'hop', index: 0 };
}
