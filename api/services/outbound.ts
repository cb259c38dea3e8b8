/**
 * The net guard for a route: a refused outbound address becomes the 400 app error
 * `error.outboundAddressRefused` (server/net-guard.ts decides, this module only speaks HTTP).
 */
import { OutboundRefused, resolveOutbound, type Lookup, type ResolvedTarget } from '../../server/net-guard';
import { appError } from '../errors';

/** resolveOutbound for a route: a refusal becomes the 400 app error `error.outboundAddressRefused`. */
export async function guardOutbound(
  host: string,
  allowlistEntries: readonly string[],
  entityName: string,
  lookup?: Lookup,
): Promise<ResolvedTarget> {
  try {
    return await resolveOutbound(host, allowlistEntries, lookup);
  } catch (err) {
    if (err instanceof OutboundRefused) {
      const e = appError('error.outboundAddressRefused', entityName);
      e.body.detail = err.message;
      throw e;
    }
    throw err;
  }
}
