import { objectStoreSettingsOf, parseFilesStoreUrl, storeUrl } from './files-s3';

describe('FILES_STORE', () => {
  it('takes a bucket and an optional prefix of an s3 URL', () => {
    expect(parseFilesStoreUrl('s3://workbench-files')).toEqual({ bucket: 'workbench-files', prefix: '' });
    expect(parseFilesStoreUrl('s3://workbench-files/')).toEqual({ bucket: 'workbench-files', prefix: '' });
    expect(parseFilesStoreUrl('s3://wb.files/prod//eu/')).toEqual({ bucket: 'wb.files', prefix: 'prod/eu/' });
    expect(storeUrl(parseFilesStoreUrl('s3://wb.files/prod/eu'))).toBe('s3://wb.files/prod/eu');
  });

  it('refuses what is not an s3 URL of a valid bucket with a line naming the variable', () => {
    expect(() => parseFilesStoreUrl('/var/lib/files')).toThrow(/^FILES_STORE must be s3:\/\/bucket/);
    expect(() => parseFilesStoreUrl('https://bucket.s3.amazonaws.com')).toThrow(/^FILES_STORE must be/);
    expect(() => parseFilesStoreUrl('s3://Upper_Case')).toThrow(/invalid bucket "Upper_Case"/);
    expect(() => parseFilesStoreUrl('s3://files/a/../b')).toThrow(/"\." or "\.\."/);
  });

  it('is the local directory when unset, and path-style with us-east-1 for an endpoint of another vendor', () => {
    expect(objectStoreSettingsOf({})).toBeNull();
    expect(objectStoreSettingsOf({ FILES_STORE: ' ' })).toBeNull();
    expect(
      objectStoreSettingsOf({ FILES_STORE: 's3://files/wb', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:7070' }),
    ).toEqual({
      bucket: 'files',
      prefix: 'wb/',
      endpoint: 'http://127.0.0.1:7070',
      region: 'us-east-1',
      forcePathStyle: true,
    });
    // On AWS: virtual-hosted addressing, the region and credentials from the SDK's chain.
    expect(objectStoreSettingsOf({ FILES_STORE: 's3://files', AWS_REGION: 'eu-central-1' })).toEqual({
      bucket: 'files',
      prefix: '',
      region: 'eu-central-1',
      forcePathStyle: false,
    });
  });
});
