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
  media: {
    feed: '/media/feed',
    upload: '/media/upload',
    tags: '/media/tags',
    liked: '/media/liked',
    reposted: '/media/reposted',
    saved: '/media/saved',
    post: (id: number) => `/media/post/${id}`,
    like: (id: number) => `/media/post/${id}/like`,
    save: (id: number) => `/media/post/${id}/save`,
    repost: (id: number) => `/media/post/${id}/repost`,
    comments: (id: number) => `/media/post/${id}/comments`,
    comment: (id: number) => `/media/post/${id}/comment`,
    user: (username: string) => `/media/user/${encodeURIComponent(username)}`,
    blacklist: '/media/preferences/tags',
    blacklistTag: (tag: string) => `/media/preferences/tags/${encodeURIComponent(tag)}`,
  },
} as const;
