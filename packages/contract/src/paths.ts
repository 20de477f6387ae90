/** HTTP paths, shared by the server's routes and the web client. */
export const API_PREFIX = '/api/v1';

export const paths = {
  auth: {
    register: '/auth/register',
    login: '/auth/login',
    logout: '/auth/logout',
    me: '/auth/me',
  },
  profile: {
    byUsername: (username: string) => `/profile/${encodeURIComponent(username)}`,
    search: '/profile/search/users',
    update: '/profile',
    avatar: '/profile/avatar',
    follow: (username: string) => `/profile/${encodeURIComponent(username)}/follow`,
  },
  health: '/health',
} as const;
