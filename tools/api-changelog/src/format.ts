import { Change, ChangeGroup, ChangeKind } from './model';

const GROUPS: [ChangeGroup, string][] = [
  ['breaking', 'Breaking changes'],
  ['potentially-breaking', 'Potentially breaking changes'],
];
const KINDS: ChangeKind[] = ['Removed', 'Added', 'Changed', 'Deprecated'];

/** `{changes: [{group, kind, method, path, description}]}`, nothing else (the check id stays internal). */
export function toJson(changes: Change[]): string {
  const plain = changes.map(({ group, kind, method, path, description }) => ({
    group,
    kind,
    method,
    path,
    description,
  }));
  return `${JSON.stringify({ changes: plain }, null, 2)}\n`;
}

export interface MarkdownTitle {
  from: string;
  to: string;
}

/** Grouped like area C: Breaking, then Potentially breaking; inside each, by kind; each line the method with path. */
export function toMarkdown(changes: Change[], title?: MarkdownTitle): string {
  const lines = [title ? `# API changes from ${title.from} to ${title.to}` : '# API changes', ''];
  if (changes.length === 0) return `${lines.join('\n')}No breaking or potentially breaking changes.\n`;
  for (const [group, heading] of GROUPS) {
    const inGroup = changes.filter((c) => c.group === group);
    if (inGroup.length === 0) continue;
    lines.push(`## ${heading} (${inGroup.length})`, '');
    for (const kind of KINDS) {
      const ofKind = inGroup.filter((c) => c.kind === kind);
      if (ofKind.length === 0) continue;
      lines.push(`### ${kind}`, '');
      for (const c of ofKind) lines.push(`- \`${c.method} ${c.path}\`: ${c.description}`);
      lines.push('');
    }
  }
  return lines.join('\n');
}
