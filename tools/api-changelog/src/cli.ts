import { readFile } from 'node:fs/promises';
import { diffDocuments } from './diff';
import { toJson, toMarkdown } from './format';
import { loadOpenApi } from './load';
import { ChangelogInputError } from './model';
import { toSarif } from './sarif';

const USAGE = 'usage: api-changelog OLD NEW [--format markdown|json|sarif] [--fail-on breaking|potentially-breaking]';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface CliOptions {
  files: string[];
  format: 'markdown' | 'json' | 'sarif';
  failOn?: 'breaking' | 'potentially-breaking';
}

function parseArgs(argv: string[]): CliOptions | string {
  const options: CliOptions = { files: [], format: 'markdown' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--format') {
      const format = value();
      if (format !== 'markdown' && format !== 'json' && format !== 'sarif')
        return `--format must be markdown, json or sarif (got ${JSON.stringify(format ?? '')})`;
      options.format = format;
    } else if (flag === '--fail-on') {
      const level = value();
      if (level !== 'breaking' && level !== 'potentially-breaking')
        return `--fail-on must be breaking or potentially-breaking (got ${JSON.stringify(level ?? '')})`;
      options.failOn = level;
    } else if (flag.startsWith('--')) {
      return `unknown option ${flag}`;
    } else {
      options.files.push(arg);
    }
  }
  return options.files.length === 2 ? options : `expected two documents, got ${options.files.length}`;
}

/**
 * Exit codes: 0 done (or nothing at the --fail-on level), 1 changes at the --fail-on level, 2 bad usage or
 * bad input (unreadable file, invalid document, unresolved $ref, Swagger 2.0).
 */
export async function runCli(argv: string[]): Promise<CliResult> {
  const options = parseArgs(argv);
  if (typeof options === 'string') return { code: 2, stdout: '', stderr: `api-changelog: ${options}\n${USAGE}\n` };
  try {
    const [oldDoc, newDoc] = await Promise.all(options.files.map((file) => loadOpenApi(file)));
    const changes = diffDocuments(oldDoc, newDoc);
    const stdout =
      options.format === 'json'
        ? toJson(changes)
        : options.format === 'sarif'
          ? toSarif(changes, options.files[1], await readFile(options.files[1], 'utf8'))
          : toMarkdown(changes, {
              from: `${oldDoc.info.title} ${oldDoc.info.version}`,
              to: `${newDoc.info.title} ${newDoc.info.version}`,
            });
    const failing =
      options.failOn === undefined
        ? []
        : changes.filter((c) => c.group === 'breaking' || options.failOn === 'potentially-breaking');
    const stderr = failing.length > 0 ? `api-changelog: ${failing.length} ${options.failOn} change(s) found\n` : '';
    return { code: failing.length > 0 ? 1 : 0, stdout, stderr };
  } catch (error) {
    if (error instanceof ChangelogInputError)
      return { code: 2, stdout: '', stderr: `api-changelog: ${error.message}\n` };
    throw error;
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (result) => {
      process.stdout.write(result.stdout);
      process.stderr.write(result.stderr);
      process.exitCode = result.code;
    },
    (error: unknown) => {
      process.stderr.write(`api-changelog: unexpected failure: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
