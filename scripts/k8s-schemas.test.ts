import { schemaFileName, standaloneStrict } from './k8s-schemas';

describe('the vendored Kubernetes schemas', () => {
  it('are named as kubeconform looks them up', () => {
    expect(schemaFileName('apps', 'v1', 'Deployment')).toBe('deployment-apps-v1.json');
    expect(schemaFileName('', 'v1', 'Secret')).toBe('secret-v1.json');
    expect(schemaFileName('networking.k8s.io', 'v1', 'Ingress')).toBe('ingress-networking-v1.json');
  });

  it('inline every reference and refuse properties the definitions do not list', () => {
    const definitions = {
      'x.Kind': { type: 'object', properties: { spec: { $ref: '#/definitions/x.Spec', description: 'd' } } },
      'x.Spec': { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      'x.Map': { type: 'object', additionalProperties: { type: 'string' } },
    };
    expect(standaloneStrict(definitions, 'x.Kind')).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        spec: {
          type: 'object',
          description: 'd',
          properties: { n: { type: 'integer' } },
          required: ['n'],
          additionalProperties: false,
        },
      },
    });
    // A map keeps its own additionalProperties.
    expect(standaloneStrict(definitions, 'x.Map')).toEqual(definitions['x.Map']);
  });

  it('stop on a recursive definition rather than loop', () => {
    const definitions = {
      'x.Node': { type: 'object', properties: { next: { $ref: '#/definitions/x.Node' } } },
    };
    expect(() => standaloneStrict(definitions, 'x.Node')).toThrow('recursive schema x.Node -> x.Node');
  });
});
