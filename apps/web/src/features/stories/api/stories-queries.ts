import type { StoriesFeedResponse, Story, StoryGroup, StoryReportReason } from '@kadr/contract';
import { moderationEndpoints } from '@kadr/contract/moderation/endpoints';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { useStoriesUi } from '../stories-ui-store.ts';

export const STORIES_FEED_LIMIT = 20;

export const storiesKeys = {
  all: ['stories'] as const,
  feed: () => [...storiesKeys.all, 'feed'] as const,
  story: (id: number) => [...storiesKeys.all, 'story', id] as const,
  viewers: (id: number) => [...storiesKeys.all, 'viewers', id] as const,
  home: () => ['home-feed'] as const,
};

/** §8: a story or viewers load failure is logged and gives an empty result. */
async function logged<T>(what: string, load: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.error(`Failed to load ${what}`, error);
    return empty;
  }
}

/** Groups sorted by last_story_at descending, has_unviewed recomputed (spec §4.10). */
export function normalizeGroups(groups: StoryGroup[]): StoryGroup[] {
  return (
    groups
      .map((g) => ({ ...g, has_unviewed: g.stories.some((s) => !s.is_viewed) }))
      // ISO-8601 UTC strings order as plain strings; localeCompare would build an ICU collator (slow on first use).
      .sort((a, b) => (a.last_story_at < b.last_story_at ? 1 : a.last_story_at > b.last_story_at ? -1 : 0))
  );
}

export function useStoriesFeed() {
  return useQuery({
    queryKey: storiesKeys.feed(),
    queryFn: ({ signal }) =>
      logged<StoriesFeedResponse>(
        'stories',
        () => api.call(storiesEndpoints.feed, { query: { limit: STORIES_FEED_LIMIT }, signal }),
        { stories_groups: [] },
      ),
    select: (data) => normalizeGroups(data.stories_groups),
    staleTime: 15_000,
  });
}

export function useStoryViewers(storyId: number, enabled: boolean) {
  return useQuery({
    queryKey: storiesKeys.viewers(storyId),
    queryFn: ({ signal }) =>
      logged('story viewers', () => api.call(storiesEndpoints.viewers, { params: { id: storyId }, signal }), {
        viewers: [],
      }),
    enabled,
  });
}

export function useHomeFeed() {
  return useQuery({
    queryKey: storiesKeys.home(),
    queryFn: ({ signal }) => api.call(storiesEndpoints.homeFeed, { query: { limit: 30 }, signal }),
    staleTime: 30_000,
  });
}

/** Changes one story wherever it is held: the feed cache and the open viewer's snapshot. */
export function patchStory(queryClient: QueryClient, storyId: number, patch: Partial<Story>) {
  queryClient.setQueryData<StoriesFeedResponse>(storiesKeys.feed(), (data) =>
    data
      ? {
          stories_groups: data.stories_groups.map((g) =>
            g.stories.some((s) => s.id === storyId)
              ? { ...g, stories: g.stories.map((s) => (s.id === storyId ? { ...s, ...patch } : s)) }
              : g,
          ),
        }
      : data,
  );
  useStoriesUi.getState().patchStory(storyId, patch);
}

export function findStory(queryClient: QueryClient, storyId: number): Story | undefined {
  const fromViewer = useStoriesUi
    .getState()
    .viewer?.groups.flatMap((g) => g.stories)
    .find((s) => s.id === storyId);
  if (fromViewer) return fromViewer;
  return queryClient
    .getQueryData<StoriesFeedResponse>(storiesKeys.feed())
    ?.stories_groups.flatMap((g) => g.stories)
    .find((s) => s.id === storyId);
}

/** Marks a story viewed once per session (the server counts it once anyway). */
const viewedHere = new Set<number>();
export function useMarkViewed() {
  const queryClient = useQueryClient();
  return (story: Story, ownerId: number | null) => {
    if (story.user_id === ownerId || story.is_viewed || viewedHere.has(story.id)) return;
    viewedHere.add(story.id);
    patchStory(queryClient, story.id, { is_viewed: true });
    api.call(storiesEndpoints.view, { params: { id: story.id } }).then(
      (result) => patchStory(queryClient, story.id, { views_count: result.views_count }),
      (error: unknown) => {
        viewedHere.delete(story.id);
        console.error('Failed to mark the story viewed', error);
      },
    );
  };
}

/** Like / unlike (a DELETE), optimistic with rollback (spec §4.10, §8). */
export function useStoryLike() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ story, like }: { story: Story; like: boolean }) =>
      like
        ? api.call(storiesEndpoints.like, { params: { id: story.id } })
        : api.call(storiesEndpoints.unlike, { params: { id: story.id } }),
    onMutate: ({ story, like }) => {
      const previous = findStory(queryClient, story.id) ?? story;
      patchStory(queryClient, story.id, {
        is_liked: like,
        likes_count: Math.max(0, previous.likes_count + (like === previous.is_liked ? 0 : like ? 1 : -1)),
      });
      return { previous };
    },
    onError: (_error, { story }, context) => {
      const previous = context?.previous ?? story;
      patchStory(queryClient, story.id, { is_liked: previous.is_liked, likes_count: previous.likes_count });
    },
    onSuccess: (result, { story }) => patchStory(queryClient, story.id, result),
  });
}

export function useDeleteStory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (storyId: number) => api.call(storiesEndpoints.remove, { params: { id: storyId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storiesKeys.feed() }),
  });
}

export function useStoryReply() {
  return useMutation({
    mutationFn: ({ storyId, content }: { storyId: number; content: string }) =>
      api.call(storiesEndpoints.reply, { params: { id: storyId }, body: { content } }),
  });
}

export function useStoryReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ storyId, reason }: { storyId: number; reason: StoryReportReason }) =>
      api.call(moderationEndpoints.report, { body: { kind: 'story', target_id: storyId, reason } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storiesKeys.feed() }),
  });
}
