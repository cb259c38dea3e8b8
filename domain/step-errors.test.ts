import { stepError, stepErrorKey } from './step-errors';

describe('stepErrorKey', () => {
  it('reads every message of the catalogue back into its key and parameters', () => {
    expect(stepErrorKey(stepError.pdfDamaged.text({ what: 'pdf' }))).toEqual({
      key: 'error.step.parser.damaged',
      params: { what: 'pdf' },
    });
    expect(stepErrorKey(stepError.pdfPassword.text({ what: 'office' }))).toEqual({
      key: 'error.step.parser.password',
      params: { what: 'office' },
    });
    const params = {
      what: 'pdf',
      id: '7',
      name: 'Box',
      detail: 'connect ECONNREFUSED',
      host: 'h.test',
      status: '404',
    };
    for (const e of Object.values(stepError)) {
      const text = (e.text as (p: typeof params) => string)(params);
      expect(stepErrorKey(text)?.key).toBe(e.key);
    }
  });

  it('reads the messages steps kept before they had keys, and leaves unknown ones alone', () => {
    expect(
      stepErrorKey('The PDF file is damaged and cannot be read: export it again and upload the new file.'),
    ).toEqual({ key: 'error.step.parser.damaged', params: { what: 'pdf' } });
    expect(
      stepErrorKey('The spreadsheet is damaged and cannot be read: export it again and upload the new file.'),
    ).toBeNull();
    expect(stepErrorKey('Something else went wrong')).toBeNull();
  });
});

describe('action and LLM messages in the catalogue', () => {
  it('reads the messages the action executors fail with, with their parameters', () => {
    expect(stepErrorKey('The receiver node 12 is not an inter-process receiver')).toEqual({
      key: 'error.step.action.notReceiver',
      params: { id: '12' },
    });
    expect(stepErrorKey('The request to api.test:8080 answered HTTP 404')).toEqual({
      key: 'error.step.action.requestStatus',
      params: { host: 'api.test:8080', status: '404' },
    });
    expect(stepErrorKey('The request to api.test failed: fetch failed: connect ECONNREFUSED')).toEqual({
      key: 'error.step.action.requestFailed',
      params: { host: 'api.test', detail: 'fetch failed: connect ECONNREFUSED' },
    });
    expect(stepErrorKey('The LLM API failed: 401 Incorrect API key provided')).toEqual({
      key: 'error.step.llm.failed',
      params: { detail: '401 Incorrect API key provided' },
    });
    // the texts of executors that build them in place (send-to-sftp, send-to-drive, send-mail)
    expect(stepErrorKey('The SFTP node has no SFTP connection')?.key).toBe(
      'error.step.action.sftpNoConnection',
    );
    expect(stepErrorKey('The cloud-drive connection "Team drive" has no folder')).toEqual({
      key: 'error.step.action.driveNoFolder',
      params: { name: 'Team drive' },
    });
    expect(stepErrorKey('The secret "smtp" of the mail node is inactive')?.params).toEqual({ name: 'smtp' });
    expect(
      stepErrorKey(
        '127.0.0.1 is a private address. An administrator may admit the address with OUTBOUND_ALLOWLIST.',
      ),
    ).toEqual({
      key: 'error.step.action.addressRefused',
      params: { detail: '127.0.0.1 is a private address.' },
    });
  });
});
