import type { Lookup } from '../../server/net-guard';
import { HttpError } from '../errors';
import { guardOutbound } from './outbound';

const dns: Lookup = async (host) => {
  if (host !== 'internal.example.com')
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return [{ address: '10.0.0.5', family: 4 }];
};

describe('guardOutbound', () => {
  it('turns a refusal into the 400 app error error.outboundAddressRefused for routes', async () => {
    const err = await guardOutbound('internal.example.com', [], 'sftpConnection', dns).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(400);
    expect(err.body.message).toBe('error.outboundAddressRefused');
    expect(err.headers['X-soaApp-error']).toBe('error.outboundAddressRefused');
    expect(err.body.detail).toMatch(/private address 10\.0\.0\.5/);
  });

  it('passes a lookup failure through', async () => {
    await expect(guardOutbound('nowhere.invalid', [], 'sftpConnection', dns)).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });
});
