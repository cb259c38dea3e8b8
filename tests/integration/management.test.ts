import { call, setupSuite, startTestApi } from '../support/harness';
import { eventuallyMatches } from '../support/eventually';
import { englishOnlyTessdata } from '../support/media';
import { MASK } from '../../server/masking';

describe('management endpoints', () => {
  const suite = setupSuite();

  it('reports the database and Temporal as UP', async () => {
    // A check is a moment's observation with a deadline (3 s): on a loaded machine the first connection to
    // Temporal may miss it, and the next check, on the open connection, reports UP.
    const res = await eventuallyMatches(
      () => suite.call('/management/health'),
      (r) => r.status === 200,
      'health UP',
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('UP');
    expect(res.body.components.db.status).toBe('UP');
    expect(res.body.components.temporal.status).toBe('UP');
  });

  it('reports each program of the file parser UP with its version, to an administrator', async () => {
    const res = await suite.get('/management/health', suite.admin);
    const c = res.body.components;
    expect(c.tesseract).toEqual({
      status: 'UP',
      details: { version: expect.stringMatching(/^\d+\.\d+/), languages: 'eng, pol' },
    });
    expect(c.poppler).toMatchObject({
      status: 'UP',
      details: { version: expect.stringMatching(/^\d+\.\d+/) },
    });
    expect(c.libreoffice).toMatchObject({ status: 'UP', details: { modules: 'writer, calc' } });
    expect(c.sox).toMatchObject({ status: 'UP', details: { version: expect.stringMatching(/^\d+\.\d+/) } });
    expect(c.pocketsphinx).toMatchObject({ status: 'UP', details: { model: 'en-us' } });
    expect(res.body.components.temporal.details.address).toBe(suite.api.config.temporalAddress);
    // Versions and names, no path of this machine.
    for (const name of ['tesseract', 'poppler', 'libreoffice', 'sox', 'pocketsphinx'])
      expect(JSON.stringify(c[name])).not.toContain('/');
  });

  it('gives an anonymous caller the statuses only: no address, version or missing package', async () => {
    const res = await suite.call('/management/health');
    expect(res.status).toBe(200);
    const names = Object.keys(res.body.components);
    expect(names).toEqual(expect.arrayContaining(['db', 'temporal', 'tesseract', 'poppler', 'sox']));
    // The mail server is UNKNOWN without SMTP_HOST (this suite configures none).
    for (const name of names)
      expect([name, res.body.components[name]]).toEqual([
        name,
        { status: name === 'mail' ? 'UNKNOWN' : 'UP' },
      ]);
    expect(JSON.stringify(res.body)).not.toContain(suite.api.config.temporalAddress);
  });

  it('stays UP (200) with a parser program DOWN, naming what is missing', async () => {
    // tesseract reads its languages from TESSDATA_PREFIX: a folder holding English only.
    const tessdata = englishOnlyTessdata();
    const saved = process.env.TESSDATA_PREFIX;
    process.env.TESSDATA_PREFIX = tessdata.dir;
    const api = await startTestApi();
    try {
      const res = await call(api.baseUrl, '/management/health', { token: suite.admin });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('UP');
      expect(res.body.components.tesseract).toMatchObject({
        status: 'DOWN',
        details: { missing: 'language pol', packages: expect.stringContaining('tesseract-ocr-pol') },
      });
      expect(res.body.components.sox.status).toBe('UP');
    } finally {
      if (saved === undefined) delete process.env.TESSDATA_PREFIX;
      else process.env.TESSDATA_PREFIX = saved;
      await api.close();
      tessdata.remove();
    }
  });

  it('reports Temporal DOWN (503) when the server cannot be reached', async () => {
    const broken = await startTestApi({ temporalAddress: '127.0.0.1:1' });
    try {
      const res = await call(broken.baseUrl, '/management/health');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('DOWN');
      expect(res.body.components.db.status).toBe('UP');
      expect(res.body.components.temporal.status).toBe('DOWN');
    } finally {
      await broken.close();
    }
  });

  it('answers readiness 200 with the database, Temporal and the files store UP, statuses only', async () => {
    const res = await eventuallyMatches(
      () => suite.call('/management/health/readiness'),
      (r) => r.status === 200,
      'readiness UP',
    );
    expect(res.body).toEqual({
      status: 'UP',
      components: { db: { status: 'UP' }, temporal: { status: 'UP' }, filesStore: { status: 'UP' } },
    });
    expect(await suite.call('/management/health/liveness')).toMatchObject({
      status: 200,
      body: { status: 'UP' },
    });
  });

  it('stays live (200) while not ready (503) with Temporal unreachable, and with the database too', async () => {
    const noTemporal = await startTestApi({ temporalAddress: '127.0.0.1:1' });
    try {
      const live = await call(noTemporal.baseUrl, '/management/health/liveness');
      expect([live.status, live.body]).toEqual([200, { status: 'UP' }]);
      const ready = await call(noTemporal.baseUrl, '/management/health/readiness');
      expect([ready.status, ready.body]).toEqual([
        503,
        {
          status: 'DOWN',
          components: { db: { status: 'UP' }, temporal: { status: 'DOWN' }, filesStore: { status: 'UP' } },
        },
      ]);
    } finally {
      await noTemporal.close();
    }
    const nothing = await startTestApi({
      temporalAddress: '127.0.0.1:1',
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:1/nothing',
    });
    try {
      expect((await call(nothing.baseUrl, '/management/health/liveness')).status).toBe(200);
      const ready = await call(nothing.baseUrl, '/management/health/readiness');
      expect([ready.status, ready.body.components.db, ready.body.components.temporal]).toEqual([
        503,
        { status: 'DOWN' },
        { status: 'DOWN' },
      ]);
    } finally {
      await nothing.close();
    }
  });

  it('shows no planted secret of the environment in clear, whatever its variable is called', async () => {
    // Secret parts (asserted absent) in values under names that say nothing of a secret.
    const secrets = {
      github: `ghp_${'Gh1tHubT0k3n'.repeat(3)}`,
      stripe: 'sk_live_51HvStripeSecretKey0123456789',
      slack: 'xoxb-1234567890-1234567890123-SlackBotTokenAbCdEfGh',
      aws: 'AKIAIOSFODNN7EXAMPLE',
      openai: 'sk-proj-OpenAiKey0123456789abcdefXYZ',
      apiKey: 'wbk_WorkbenchApiKey0123456789abcdef',
      webhook: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.c2lnbmF0dXJlLW9mLXRoZS1qd3Q',
      pem: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwPlantedPemBody',
      jsonKey: 'json-private-key-planted',
      jsonPassword: 'json-password-planted',
      urlPassword: 'url-password-planted',
      urlToken: 'query-token-planted',
      urlPath: 'aB3dE5fG7hJ9kL1mN2pQ4rS6',
    };
    const planted: Record<string, string> = {
      MGMT_TEST_A: `deploy with ${secrets.github}`,
      MGMT_TEST_B: secrets.stripe,
      MGMT_TEST_C: secrets.slack,
      MGMT_TEST_D: secrets.aws,
      MGMT_TEST_E: secrets.openai,
      MGMT_TEST_F: secrets.apiKey,
      MGMT_TEST_G: secrets.webhook,
      MGMT_TEST_H: secrets.jwt,
      MGMT_TEST_I: `-----BEGIN PRIVATE KEY-----\n${secrets.pem}\n-----END PRIVATE KEY-----\n`,
      MGMT_TEST_J: JSON.stringify({
        type: 'service_account',
        private_key: secrets.jsonKey,
        nested: { password: secrets.jsonPassword },
      }),
      MGMT_TEST_K: `https://robot:${secrets.urlPassword}@files.example.org/a?page=2&token=${secrets.urlToken}`,
      MGMT_TEST_L: `https://hooks.slack.com/services/T0ABCD1EF/B0GHIJ2KL/${secrets.urlPath}`,
    };
    Object.assign(process.env, planted);
    try {
      const res = await suite.get('/management/env', suite.admin);
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      for (const [kind, secret] of Object.entries(secrets))
        expect([kind, text.includes(secret)]).toEqual([kind, false]);
      // What is not secret stays readable.
      const props = res.body.propertySources[0].properties;
      expect(props.MGMT_TEST_A.value).toBe(`deploy with ghp_${MASK}`);
      expect(JSON.parse(props.MGMT_TEST_J.value).type).toBe('service_account');
      expect(props.MGMT_TEST_K.value).toBe(`https://robot:${MASK}@files.example.org/a?page=2&token=${MASK}`);
      expect(props.MGMT_TEST_L.value).toBe(`https://hooks.slack.com/services/T0ABCD1EF/B0GHIJ2KL/${MASK}`);
    } finally {
      for (const k of Object.keys(planted)) delete process.env[k];
    }
  });

  it('serves the application name and profiles', async () => {
    expect((await suite.call('/management/app-name')).body).toEqual({ appName: suite.api.config.appName });
    const info = await suite.call('/management/info');
    expect(info.body.activeProfiles).toEqual(suite.api.config.profiles);
  });

  it('serves both locales with the same keys and refuses unknown ones', async () => {
    const en = await suite.call('/i18n/en.json?buildTimestamp=1');
    const pl = await suite.call('/i18n/pl.json');
    expect(en.status).toBe(200);
    expect(pl.status).toBe(200);
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? keys(v, `${p}${k}.`) : [`${p}${k}`]));
    expect(keys(pl.body).sort()).toEqual(keys(en.body).sort());
    expect(en.body.error.http['403']).toBeTruthy();
    expect((await suite.call('/i18n/xx.json')).status).toBe(404);
  });

  it('answers unknown API paths with 404 and the catalogue body', async () => {
    const res = await suite.call('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('error.url.not.found');
  });
});
