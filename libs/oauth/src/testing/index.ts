// For tests that watch the persistence behind a cache (spy on a lookup); production code uses the services.
export { ClientGrantRepository, ClientRepository } from '../lib/repositories';
