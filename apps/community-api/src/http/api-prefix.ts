/** Every public route lives under this prefix (docs/community-api.md: `{base_url}/{projectId}/api/v7`, base ending in `/api/v6`). */
export const COMMUNITY_API_PREFIX = 'api/v6/:projectId/api/v7';
