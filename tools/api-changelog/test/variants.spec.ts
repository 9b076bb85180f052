import { changelog, Doc, document, int, json, obj, ok, summary } from './openapi-fixtures';

const PATH = '/api/v2/rate-limit-policies';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const CONFIGURATIONS: Doc = {
  Allow: obj({ action: { type: 'string', enum: ['allow'] } }, ['action']),
  BlockOrLog: obj({ action: { type: 'string', enum: ['block', 'log'] }, limit: int('int32') }, ['action', 'limit']),
  Redirect: obj(
    { action: { type: 'string', enum: ['redirect'] }, limit: int('int32'), redirect_uri: { type: 'string' } },
    ['action', 'limit', 'redirect_uri'],
  ),
};
/** A create route whose request takes `configuration` as `oneOf` the listed components, and answers it back. */
const api = (alternatives: string[], schemas: Doc = CONFIGURATIONS, response = alternatives) =>
  document(
    {
      [PATH]: {
        post: {
          requestBody: {
            required: true,
            ...json(obj({ configuration: { oneOf: alternatives.map(ref) } }, ['configuration'])),
          },
          responses: { '201': ok(obj({ configuration: { oneOf: response.map(ref) } }, ['configuration'])) },
        },
      },
    },
    { schemas },
  );

describe('oneOf/anyOf alternatives are matched by identity, not position', () => {
  it('reordering the alternatives is no change', async () => {
    expect(await changelog(api(['Allow', 'BlockOrLog', 'Redirect']), api(['Redirect', 'Allow', 'BlockOrLog']))).toEqual(
      [],
    );
  });

  it('removing a middle request alternative is that removal only (not changes to the ones after it)', async () => {
    const changes = await changelog(
      api(['Allow', 'BlockOrLog', 'Redirect']),
      api(['Allow', 'Redirect'], CONFIGURATIONS, ['Allow', 'BlockOrLog', 'Redirect']),
    );
    expect(summary(changes)).toEqual([
      {
        group: 'breaking',
        kind: 'Removed',
        method: 'POST',
        path: PATH,
        description: 'a `oneOf` alternative of request property `configuration` removed',
      },
    ]);
  });

  it('a change inside one alternative is reported once it is matched to itself', async () => {
    const narrowed = {
      ...CONFIGURATIONS,
      Redirect: obj({ ...CONFIGURATIONS['Redirect'].properties, redirect_uri: { type: 'string', maxLength: 2048 } }, [
        'action',
        'limit',
        'redirect_uri',
      ]),
    };
    const changes = await changelog(
      api(['Allow', 'BlockOrLog', 'Redirect']),
      api(['Redirect', 'BlockOrLog', 'Allow'], narrowed),
    );
    expect(changes.map((c) => c.check)).toEqual(['request-bounds-tightened']);
    expect(changes[0].description).toContain('configuration.redirect_uri');
  });

  it('replacing an alternative by another is a removal for requests and an addition for responses', async () => {
    const schemas = { ...CONFIGURATIONS, Deny: obj({ action: { type: 'string', enum: ['deny'] } }, ['action']) };
    const changes = await changelog(api(['Allow', 'BlockOrLog']), api(['Allow', 'Deny'], schemas));
    expect(changes.map((c) => c.check).sort()).toEqual(['request-variant-removed', 'response-one-of-added']);
  });

  it('inline alternatives without names match by their discriminator value, title or type', async () => {
    const inline = (order: number[]) => {
      const options: Doc[] = [
        { title: 'Coordinates', ...obj({ lat: { type: 'number' } }) },
        { type: 'string' },
        int('int64'),
      ];
      return document({
        [PATH]: {
          post: {
            requestBody: json(obj({ at: { oneOf: order.map((i) => options[i]) } })),
            responses: { '204': { description: 'No Content' } },
          },
        },
      });
    };
    expect(await changelog(inline([0, 1, 2]), inline([2, 0, 1]))).toEqual([]);
    const tagged = (values: string[]) =>
      document({
        [PATH]: {
          post: {
            requestBody: json({
              discriminator: { propertyName: 'kind' },
              oneOf: values.map((kind) => obj({ kind: { type: 'string', enum: [kind] }, [kind]: { type: 'string' } })),
            }),
            responses: { '204': { description: 'No Content' } },
          },
        },
      });
    expect(await changelog(tagged(['a', 'b', 'c']), tagged(['c', 'a', 'b']))).toEqual([]);
    expect((await changelog(tagged(['a', 'b', 'c']), tagged(['a', 'c']))).map((c) => c.check)).toEqual([
      'request-variant-removed',
    ]);
  });
});
