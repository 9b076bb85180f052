export * from './model';
export * from './checks';
export * from './schema-diff';
export { diffDocuments } from './diff';
export { loadOpenApi, parseOpenApi } from './load';
export { toJson, toMarkdown } from './format';
export { toSarif } from './sarif';
export { runCli } from './cli';
