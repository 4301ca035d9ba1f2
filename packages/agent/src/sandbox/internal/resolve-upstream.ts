import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AddressClass, classifyAddress } from './classify-address.js';

export interface ResolveUpstreamOptions {
  /** Admit a name that resolves into a private network (`classifyAddress`'s `private`); never into a `local` one. */
  allowPrivateNetworks?: boolean;
  /** The resolver: the system's (`getaddrinfo`, /etc/hosts included), every answer of it. */
  resolve?: (host: string) => Promise<readonly { address: string }[]>;
  /**
   * Who an answer reaches (default `classifyAddress`). The tests' seam: a loopback listener classed `private` stands
   * for a host of the internal network, so `allowPrivateNetworks` is proven end to end without leaving this machine.
   */
  classify?: (address: string) => AddressClass | undefined;
}

const systemResolve = (name: string) => lookup(name, { all: true, verbatim: true });

/**
 * Where the proxy connects for an admitted `host`: the address it resolves to, resolved once here (so that a
 * second answer, a DNS rebinding, cannot differ from the one checked). Every answer is checked, and a name with one
 * that is not public is refused: an allowlist entry `*.example.com` must not become the server's own loopback, the
 * cloud metadata service or a host of its internal network because someone controls a record under it. A private
 * network is admitted by `allowPrivateNetworks`; an address of this machine or its link only by naming it, as an IP
 * literal entry (`127.0.0.1:8080`, `10.0.0.5`) or `localhost`, which is connected to as given.
 */
export async function resolveUpstream(
  host: string,
  options: ResolveUpstreamOptions = {},
): Promise<{ address: string } | { refused: string }> {
  if (isIP(host) !== 0 || host === 'localhost') return { address: host };
  const addresses = await (options.resolve ?? systemResolve)(host);
  for (const { address } of addresses) {
    const found = (options.classify ?? classifyAddress)(address);
    if (found === undefined)
      return { refused: `${host} resolves to ${address}, which is not an IP address the proxy can check` };
    if (found.scope === 'local')
      return {
        refused: `${host} resolves to ${address}, ${found.range}, an address of this machine or its link or none of a host out there, reached only by an allowlist entry naming it`,
      };
    if (found.scope === 'private' && options.allowPrivateNetworks !== true)
      return {
        refused: `${host} resolves to ${address}, ${found.range}, not a public address: reached only with the allowlist's \`allowPrivateNetworks: true\` or by an entry naming the address`,
      };
  }
  const first = addresses[0];
  if (first === undefined) return { refused: `${host} resolves to no address` };
  return { address: first.address };
}
