import { everyInChunks, findTextProblem, hasExactlyKeys, isPlainObject, validationFailed } from '@acme/platform-errors';
import { unstorableText } from '@acme/platform-http';
import { isText } from '../../http/plain-checks';

/**
 * The import's plain check (AcceptWhen on ImportDocumentsRequest): 10,000 documents x 5 records are 60,000
 * nested objects, seconds of class-transformer/class-validator. A body of the common valid shape is recognised
 * here in chunks that yield to the event loop; any other body goes through the decorators as before
 * (docs/decisions.md#big-bodies-are-checked-in-chunks). The route is @OpaqueBody, so the storable-text walk the
 * global guard would do in one go is done here too, in chunks, before anything else, with the guard's answer.
 */
export const MAX_IMPORT_DOCUMENTS = 10000;
const MAX_RECORDS_EACH = 1000;
const TOO_MANY = `documents must contain no more than ${MAX_IMPORT_DOCUMENTS} elements`;

const RECORD_KEYS = ['id', 'kind', 'body'] as const;
const DOCUMENT_KEYS = new Set(['id', 'title', 'content', 'records']);

function isPlainRecord(value: unknown): boolean {
  return (
    hasExactlyKeys(value, RECORD_KEYS) &&
    isText(value['id'], 1, 256) &&
    isText(value['kind'], 1, 64) &&
    isPlainObject(value['body'])
  );
}

function isPlainDocument(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (!DOCUMENT_KEYS.has(key)) return false;
  const { id, title, content, records } = value;
  if (!isText(id, 1, 256) || !isText(title, 0, 1000)) return false;
  if (content !== undefined && !isText(content, 0, 1_000_000)) return false;
  if (records === undefined) return true;
  return Array.isArray(records) && records.length <= MAX_RECORDS_EACH && records.every(isPlainRecord);
}

/**
 * Throws the global guard's 400 for the first string or key PostgreSQL could not hold, visiting documents in
 * the guard's order (it walks a stack, so the last document first) and yielding between chunks.
 */
async function refuseUnstorableText(documents: unknown[]): Promise<void> {
  let problem: ReturnType<typeof findTextProblem>;
  await everyInChunks(
    documents,
    (document, index) => {
      // Wrapped so paths and messages read `documents.<index>...` exactly as the walk of the whole body.
      problem = findTextProblem({ documents: { [index]: document } });
      return problem === undefined;
    },
    { chunkSize: 250, fromEnd: true },
  );
  if (problem) throw unstorableText(problem, 'body');
}

/** True for a body of the common valid shape (taken as sent); false sends it through the decorators. */
export async function acceptImportBody(body: unknown): Promise<boolean> {
  const documents = hasExactlyKeys(body, ['documents']) ? body['documents'] : undefined;
  if (!Array.isArray(documents)) {
    const problem = findTextProblem(body);
    if (problem) throw unstorableText(problem, 'body');
    return false;
  }
  await refuseUnstorableText(documents);
  if (documents.length < 1) return false;
  if (!(await everyInChunks(documents, isPlainDocument, { chunkSize: 500 }))) return false;
  // Too many plain documents: the one issue the decorators would report, without their walk over all of them.
  if (documents.length > MAX_IMPORT_DOCUMENTS)
    throw validationFailed([{ property: 'documents', constraints: [TOO_MANY] }]);
  return true;
}
