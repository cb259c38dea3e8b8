/** The error catalogue of spec 1 section 8, with a fake `t` that echoes keys (and default values). */
import { HttpError, RequestError } from './client';
import { alertMessage, errorDetailOf, errorKeyOf, errorMessages } from './errors';

const TEXTS: Record<string, string> = {
  'error.http.403': 'You are not authorized to access this page.',
  'error.http.422': 'The request could not be processed.',
  'error.http.423': 'The resource is locked.',
  'error.graph.noCohesive': 'The graph is not connected.',
  'error.userexists': 'Login name already used!',
  'entity.validation.required': 'This field is required.',
  'global.field.name': 'Name',
  'soaApp.process.created': 'A new Sphere is created: {{param}}',
};

function t(key: string, options: Record<string, unknown> = {}): string {
  const template = TEXTS[key] ?? (options.defaultValue as string | undefined) ?? key;
  if (key === 'error.fieldError')
    return `Error on field "${String(options.fieldName)}": ${String(options.detail)}`;
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options[name] ?? ''));
}

const error = (
  status: number,
  body: unknown = null,
  headers: Record<string, string> = {},
  url = '/api/processes',
  method: 'GET' | 'POST' = 'POST',
) => new HttpError(status, body, new Headers(headers), url, method);

describe('errorMessages', () => {
  it('says the server is not reachable for status 0', () => {
    expect(errorMessages(t, error(0))).toEqual(['Server not reachable']);
  });

  it('prefers the app-error header on 400', () => {
    const e = error(
      400,
      { message: 'error.userexists', errorKey: 'userexists' },
      {
        'X-soaApp-error': 'error.userexists',
        'X-soaApp-params': 'userManagement',
      },
    );
    expect(errorMessages(t, e)).toEqual(['Login name already used!']);
  });

  it('lists field errors as "Error on field" with the rule key, one toast per field', () => {
    const e = error(400, {
      message: 'error.validation',
      fieldErrors: [
        { objectName: 'process', field: 'name', message: 'NotBlank', key: 'entity.validation.required' },
        { objectName: 'process', field: 'size', message: 'Min', key: '' },
      ],
    });
    expect(errorMessages(t, e)).toEqual([
      'Error on field "Name": This field is required.',
      'Error on field "size": Size',
    ]);
  });

  it('falls back to the body message on 400 without header or field errors', () => {
    expect(errorMessages(t, error(400, { message: 'error.http.403' }))).toEqual([
      'You are not authorized to access this page.',
    ]);
  });

  it("says 'Unauthorized' on 401, except for the account check", () => {
    expect(errorMessages(t, error(401, { message: 'error.http.401' }, {}, '/api/authenticate'))).toEqual([
      'Unauthorized',
    ]);
    expect(errorMessages(t, error(401, null, {}, '/api/account', 'GET'))).toEqual([]);
  });

  it('maps 403 and 404', () => {
    expect(errorMessages(t, error(403))).toEqual(['You are not authorized to access this page.']);
    expect(errorMessages(t, error(404))).toEqual(['Not found']);
  });

  it('uses the graph mapping, then the body key, then error.http.422 on 422', () => {
    expect(errorMessages(t, error(422, { key: 'error.graph.noCohesive' }))).toEqual([
      'The graph is not connected.',
    ]);
    expect(errorMessages(t, error(422, {}))).toEqual(['The request could not be processed.']);
  });

  it('uses the body key, else error.http.423 on 423', () => {
    expect(errorMessages(t, error(423, {}))).toEqual(['The resource is locked.']);
  });

  it('shows the body message for other statuses, else Unknown error!', () => {
    expect(errorMessages(t, error(500, { message: 'error.http.403' }))).toEqual([
      'You are not authorized to access this page.',
    ]);
    expect(errorMessages(t, error(502, ''))).toEqual(['Unknown error!']);
  });

  it('shows the error message when no response arrived', () => {
    expect(errorMessages(t, new RequestError('timeout of 60000ms exceeded', '/api/x', 'GET'))).toEqual([
      'timeout of 60000ms exceeded',
    ]);
    expect(errorMessages(t, 'boom')).toEqual(['Unknown error!']);
  });
});

describe('alertMessage', () => {
  it('turns X-soaApp-alert into a success text with the decoded parameter', () => {
    const headers = new Headers({
      'X-soaApp-alert': 'soaApp.process.created',
      'X-soaApp-params': 'My%20Sphere',
    });
    expect(alertMessage(t, headers)).toBe('A new Sphere is created: My Sphere');
    expect(alertMessage(t, new Headers())).toBeNull();
  });
});

describe('errorKeyOf and errorDetailOf', () => {
  it('read the short error key and the detail of a response body', () => {
    const e = error(401, { message: 'error.http.401', detail: 'User not activated', errorKey: 'x' });
    expect(errorKeyOf(e)).toBe('x');
    expect(errorDetailOf(e)).toBe('User not activated');
    expect(errorDetailOf(new Error('x'))).toBeNull();
  });
});
