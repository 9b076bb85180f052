import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ClassifiedChange } from '../src';
import { applyEdits, goLiteral, readChain, REMOVE } from '../measure/oasdiff-edits';
import { relevantToId } from '../measure/oasdiff-map';
import { figures, runSuite } from '../measure/oasdiff-suite';
import { openOasdiff } from '../measure/oasdiff-source';

/**
 * The measuring script on a miniature of oasdiff's layout written here (a rules registry, rule ids, a Go test
 * file and its spec files): which tests become cases, how edits are replayed, how our changes answer a case.
 */

const rulesGo = `package checker

func allRules() []BackwardCompatibilityRule {
	return []BackwardCompatibilityRule{
		newBackwardCompatibilityRule(SizeMaxDecreasedId, ERR, SizeMaxCheck, DirectionRequest, AreaSchema, KindConstraints, ActionDecrease),
		newBackwardCompatibilityRule(SizeMaxIncreasedId, INFO, SizeMaxCheck, DirectionRequest, AreaSchema, KindConstraints, ActionIncrease),
		newBackwardCompatibilityRule(SunsetShortenedId, ERR, SunsetCheck, DirectionNone, AreaPaths, KindLifecycle, ActionChange),
	}
}
`;
const idsGo = `package checker

const (
	SizeMaxDecreasedId = "request-property-max-decreased"
	SizeMaxIncreasedId = "request-property-max-increased"
	SunsetShortenedId  = "api-sunset-date-changed-too-small"
)
`;
const helpersGo = `package checker_test

const (
	sizesPath = "/sizes"
)
`;
const diffLine =
  '\td, osm, err := diff.GetWithOperationsSourcesMap(diff.NewConfig(), s1, s2)\n\trequire.NoError(t, err)\n';
const testsGo = `package checker_test

func TestSizeMaxDecreased(t *testing.T) {
	s1, err := open("../data/sizes/base.yaml")
	require.NoError(t, err)
	s2, err := open("../data/sizes/smaller.yaml")
	require.NoError(t, err)
${diffLine}	errs := checker.CheckBackwardCompatibility(allChecksConfig(), d, osm)
	requireSingleChange(t, errs, checker.SizeMaxDecreasedId)
}

func TestSizeMaxIncreased(t *testing.T) {
	s1, err := open("../data/sizes/smaller.yaml")
	require.NoError(t, err)
	s2, err := open("../data/sizes/base.yaml")
	require.NoError(t, err)
${diffLine}	requireApiChange(t, checker.ApiChange{
		Id:        checker.SizeMaxIncreasedId,
		Args:      []any{"size", "5", "10"},
		Operation: "POST",
		Path:      "/sizes",
	}, errs[0])
}

func TestSizeMaxEditedInCode(t *testing.T) {
	s1, err := open("../data/sizes/base.yaml")
	require.NoError(t, err)
	s2, err := open("../data/sizes/base.yaml")
	require.NoError(t, err)
	limit := float64(3)
	s2.Spec.Paths.Value(sizesPath).Post.RequestBody.Value.Content["application/json"].Schema.Value.Properties["size"].Value.Max = &limit
${diffLine}	requireChange(t, errs, checker.SizeMaxDecreasedId)
}

func TestPathsRebuilt(t *testing.T) {
	s1 := l(t, 1)
	s2 := l(t, 1)
	s2.Spec.Paths = openapi3.NewPaths()
${diffLine}	require.Empty(t, errs)
}

func TestNothingChanged(t *testing.T) {
	s1, err := open("../data/sizes/base.yaml")
	require.NoError(t, err)
	s2, err := open("../data/sizes/base.yaml")
	require.NoError(t, err)
${diffLine}	errs := checker.CheckBackwardCompatibility(allChecksConfig(), d, osm)
	require.Empty(t, errs)
}

func TestSunsetShortened(t *testing.T) {
	s1, err := open("../data/sizes/base.yaml")
	require.NoError(t, err)
	s2, err := open("../data/sizes/base.yaml")
	require.NoError(t, err)
	s2.Spec.Paths.Value(sizesPath).Post.Extensions["x-sunset"] = "2020-01-01"
${diffLine}	requireChange(t, errs, checker.SunsetShortenedId)
}
`;
const spec = (max: number) => `openapi: 3.0.3
info: { title: Sizes, version: "1" }
paths:
  /sizes:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                size: { type: number, maximum: ${max} }
      responses:
        "204": { description: Stored }
`;

describe("the oasdiff measuring script, on a miniature of oasdiff's layout", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'oasdiff-mini-'));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    write('checker/rules.go', rulesGo);
    write('checker/sizes.go', idsGo);
    write('checker/helpers_test.go', helpersGo);
    write('checker/sizes_test.go', testsGo);
    write('data/sizes/base.yaml', spec(10));
    write('data/sizes/smaller.yaml', spec(5));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('turns file pairs and replayable edits into cases, and sets the rest aside with a reason', async () => {
    const { outcomes, skipped } = await runSuite(openOasdiff(root));
    const summary = outcomes.map((o) => [o.test, o.family, o.level, o.verdict]);
    expect(summary).toEqual([
      ['TestSizeMaxDecreased', 'core', 'ERR', 'breaking'],
      ['TestSizeMaxIncreased', 'core', 'INFO', 'not reported'],
      ['TestSizeMaxEditedInCode', 'core', 'ERR', 'breaking'],
      ['TestNothingChanged', 'core', 'INFO', 'not reported'],
      ['TestSunsetShortened', 'policy', 'ERR', 'not reported'],
    ]);
    expect(skipped).toEqual([
      { test: 'TestPathsRebuilt', file: 'sizes_test.go', reason: 'edits a spec in a way we cannot replay' },
    ]);
    const core = figures(outcomes.filter((o) => o.family === 'core'));
    expect(core).toEqual({ breaking: 2, found: 2, nonBreaking: 2, falseBreaking: 0, warn: 0, warnBreaking: 0 });
  });

  it('reads the anchor of an ApiChange literal: a change elsewhere does not answer it', async () => {
    const { outcomes } = await runSuite(openOasdiff(root));
    const increased = outcomes.find((o) => o.test === 'TestSizeMaxIncreased');
    expect(increased?.expect).toEqual({
      type: 'id',
      id: 'request-property-max-increased',
      level: 'INFO',
      anchors: [{ operation: 'POST', path: '/sizes' }],
    });
  });
});

describe('replaying Go edits', () => {
  const consts = new Map([['itemsPath', '/items']]);

  it('reads kin-openapi accessor chains as steps', () => {
    expect(
      readChain(
        '.Spec.Paths.Value(itemsPath).Get.Parameters.GetByInAndName(openapi3.ParameterInQuery, "limit").Schema.Value.MaxLength',
        consts,
      ),
    ).toEqual(['paths', '/items', 'get', 'parameters', { in: 'query', name: 'limit' }, 'schema', 'maxLength']);
    expect(
      readChain('.Spec.Paths.Value(itemsPath).Get.Responses.Value("200").Value.Headers["X-Total"]', consts),
    ).toEqual(['paths', '/items', 'get', 'responses', '200', 'headers', 'X-Total']);
    expect(readChain('.Spec.Paths.Value(itemsPath).GetOperation("GET")', consts)).toBeUndefined();
  });

  it('reads Go literals, local pointers and nil', () => {
    const locals = new Map<string, unknown>([['limit', 7]]);
    expect(goLiteral('&limit', locals)).toBe(7);
    expect(goLiteral('uint64(13)', locals)).toBe(13);
    expect(goLiteral('&openapi3.Types{"string", "null"}', locals)).toEqual(['string', 'null']);
    expect(goLiteral('&openapi3.Types{"integer"}', locals)).toBe('integer');
    expect(goLiteral('"^\\\\w+$"', locals)).toBe('^\\w+$');
    expect(goLiteral('nil', locals)).toBe(REMOVE);
    expect(goLiteral('openapi3.NewStringSchema()', locals)).toBeUndefined();
  });

  it('applies edits, and refuses one that names nothing', () => {
    const doc = {
      paths: { '/items': { get: { parameters: [{ in: 'query', name: 'limit', schema: { default: 5 } }] } } },
    };
    const at = ['paths', '/items', 'get', 'parameters', { in: 'query', name: 'limit' }, 'schema'];
    expect(applyEdits(doc, [{ spec: 's2', steps: [...at, 'default'], value: REMOVE }])).toBe(true);
    expect(applyEdits(doc, [{ spec: 's2', steps: [...at, 'maximum'], value: 9 }])).toBe(true);
    expect(doc.paths['/items'].get.parameters[0]?.schema).toEqual({ maximum: 9 });
    expect(applyEdits(doc, [{ spec: 's2', steps: ['paths', '/missing', 'get', 'x'], value: 1 }])).toBe(false);
  });
});

describe('which of our changes answer an oasdiff rule id', () => {
  const ours = (check: string, description: string, group: ClassifiedChange['group'] = 'breaking') =>
    ({ check, description, group, kind: 'Changed', method: 'POST', path: '/sizes' }) as ClassifiedChange;
  const bodyMin = ours('response-bounds-widened', '`minimum` of the response body loosened from 10 to 5');
  const propMin = ours('response-bounds-widened', '`minimum` of response property `price` loosened from 100 to 50');
  const propMax = ours('response-bounds-widened', '`maximum` of response property `price` loosened from 1 to 2');

  it('by side, subject, bound and body-or-property scope', () => {
    expect(relevantToId('response-body-min-decreased', [bodyMin, propMin, propMax])).toEqual([bodyMin]);
    expect(relevantToId('response-property-min-decreased', [bodyMin, propMin, propMax])).toEqual([propMin]);
    expect(relevantToId('request-property-min-increased', [bodyMin, propMin, propMax])).toEqual([]);
  });

  it('never by an addition for a removal', () => {
    const added = ours('new-optional-request-parameter', 'optional query parameter `q` added', 'potentially-breaking');
    const removed = ours('request-parameter-removed', 'query parameter `p` removed');
    expect(relevantToId('request-parameter-removed', [added, removed])).toEqual([removed]);
  });

  it('not at all when no subject of ours covers the id', () => {
    expect(relevantToId('server-url-changed', [propMin])).toBeUndefined();
  });
});
