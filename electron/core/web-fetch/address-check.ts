/**
 * Which addresses `web_fetch` may connect to. Names are resolved here and the connection goes to
 * the address that was checked, so a name that resolves to a public address for the check and
 * to 127.0.0.1 for the connection (DNS rebinding) cannot slip through. Every address that is
 * not public unicast (loopback, private, link-local, unique-local, CGNAT, multicast, reserved,
 * IPv4 inside IPv6) needs an explicit rule naming the host. ipaddr.js classifies the ranges: it
 * is the parser Express's proxy-addr relies on, and keeps the IANA special-purpose tables that a
 * home-made list of prefixes gets wrong at the edges (100.64/10, fc00::/7, ::ffff:0:0/96).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The range name of a non-public address ("loopback", "private", …), or null for public ones. */
export function nonPublicRange(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'unparsable';
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

export class AddressRefused extends Error {}

function refusal(host: string, address: string): AddressRefused {
  return new AddressRefused(
    `${host} resolves to ${address}, a ${nonPublicRange(address)} address; web_fetch reaches private, loopback and link-local addresses only with a rule naming the host: web_fetch(domain:${host})`,
  );
}

/**
 * Node connects to an address literal without any lookup, so literals are checked here first.
 * `localhost` and its subdomains are loopback by definition (RFC 6761), whatever a resolver
 * makes of them (`localhost.` fails on some and is 127.0.0.1 on others).
 */
export function checkLiteral(host: string, privateAllowed: boolean): void {
  if (privateAllowed) return;
  if (isIP(host) && nonPublicRange(host) !== null) throw refusal(host, host);
  if (host === 'localhost' || host.endsWith('.localhost')) {
    throw new AddressRefused(`${host} is a loopback name; web_fetch reaches private, loopback and link-local addresses only with a rule naming the host: web_fetch(domain:${host})`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request: resolves every address of the host and refuses the connection
 * when any of them is non-public and `privateAllowed` is false, naming the host and address.
 */
export function checkedLookup(host: string, privateAllowed: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    const finish = (addresses: LookupAddress[]) => {
      const refused = privateAllowed ? undefined : addresses.find((entry) => nonPublicRange(entry.address) !== null);
      if (refused) {
        callback(refusal(host, refused.address) as NodeJS.ErrnoException, []);
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    };
    const literal = isIP(hostname);
    if (literal) {
      finish([{ address: hostname, family: literal }]);
      return;
    }
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) callback(error, []);
      else if (addresses.length === 0) callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      else finish(addresses);
    });
  };
}
