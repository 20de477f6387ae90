import type { Me, Profile, ProfileUpdateBody } from '@kadr/contract';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { profileKeys } from '../../profile/api/profile-queries.ts';

/** The saved profile becomes the cached profile and the stored signed-in user. */
function useApplyProfile() {
  const queryClient = useQueryClient();
  const setUser = useAuthStore((s) => s.setUser);
  return (profile: Profile) => {
    queryClient.setQueryData(profileKeys.detail(profile.username), profile);
    const { auth } = useAuthStore.getState();
    if (auth.status !== 'signedIn') return;
    const user: Me = {
      ...auth.user,
      name: profile.name,
      bio: profile.bio,
      avatar_url: profile.avatar_url,
      avatar_thumbnail_url: profile.avatar_thumbnail_url,
    };
    setUser(user);
  };
}

export function useUpdateProfileMutation() {
  const apply = useApplyProfile();
  return useMutation({
    mutationFn: (body: ProfileUpdateBody) => api.call(profileEndpoints.update, { body }),
    onSuccess: apply,
  });
}

export function useAvatarUploadMutation() {
  const apply = useApplyProfile();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.call(profileEndpoints.avatar, { form });
    },
    onSuccess: apply,
  });
}
