import { CHECKS, CheckId } from './checks';
import { ClassifiedChange } from './model';

/** Where the new document names a route: the first line holding it as a key, else line 1. */
function lineOf(text: string, change: ClassifiedChange): number {
  const route = change.path.startsWith('webhook ')
    ? change.path.slice('webhook '.length)
    : change.path.split(' callback ')[0].replace(/^[A-Z]+ /, '');
  const lines = text.split('\n');
  const keys = [`"${route}"`, `'${route}'`, `${route}:`];
  const index = lines.findIndex((line) => keys.some((key) => line.includes(key)));
  return index < 0 ? 1 : index + 1;
}

/**
 * SARIF 2.1.0, so CI systems can annotate the changed contract: one rule per check that fired, one result per
 * change (`error` for breaking, `warning` for potentially breaking), located at the route in the new document.
 */
export function toSarif(changes: ClassifiedChange[], newFile: string, newText: string): string {
  const ruleIds = [...new Set(changes.map((c) => c.check))];
  const rules = ruleIds.map((id) => {
    const definition = CHECKS[id as CheckId];
    return {
      id,
      shortDescription: { text: definition?.summary ?? id },
      defaultConfiguration: { level: definition?.group === 'breaking' ? 'error' : 'warning' },
      properties: { group: definition?.group, kind: definition?.kind },
    };
  });
  const results = changes.map((c) => ({
    ruleId: c.check,
    ruleIndex: ruleIds.indexOf(c.check),
    level: c.group === 'breaking' ? 'error' : 'warning',
    message: { text: `${c.method} ${c.path}: ${c.description}` },
    locations: [
      { physicalLocation: { artifactLocation: { uri: newFile }, region: { startLine: lineOf(newText, c) } } },
    ],
    properties: { group: c.group, kind: c.kind, method: c.method, path: c.path },
  }));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'api-changelog', rules } }, results }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
