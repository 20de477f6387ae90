import { describe, expect, it } from 'vitest';
import { profileEndpoints } from './profile/endpoints.gen.ts';
import { profileRoutes } from './profile/routes.ts';
import { apiUrl } from './route.ts';

describe('apiUrl', () => {
  it('prefixes the path and fills its parameters, URI-encoded', () => {
    expect(apiUrl(profileRoutes.follow, { username: 'anna' })).toBe('/api/v1/profile/anna/follow');
    expect(apiUrl(profileEndpoints.follow, { username: 'a b/c' })).toBe('/api/v1/profile/a%20b%2Fc/follow');
  });

  it('adds the query, leaving out undefined values', () => {
    expect(apiUrl(profileRoutes.search, undefined, { q: 'искомый 1', limit: 5, offset: undefined })).toBe(
      '/api/v1/profile/search/users?q=%D0%B8%D1%81%D0%BA%D0%BE%D0%BC%D1%8B%D0%B9+1&limit=5',
    );
    expect(apiUrl(profileRoutes.search, undefined, { q: undefined })).toBe('/api/v1/profile/search/users');
  });

  it('refuses a missing path parameter', () => {
    expect(() => apiUrl(profileRoutes.follow)).toThrow(/username/);
  });
});
