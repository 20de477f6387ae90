/**
 * Links to a media post inside message text: `/media/post/<id>` or `/media/<id>` (spec §2.1), as an
 * absolute URL on any host or as a bare path. Ids are positive integers.
 */
const POST_LINK = /(?:^|[\s(]|https?:\/\/[^\s/]+)\/media\/(?:post\/)?(\d{1,10})(?![\w/])/g;

export function extractPostIds(text: string): number[] {
  const ids: number[] = [];
  for (const match of text.matchAll(POST_LINK)) {
    const id = Number(match[1]);
    if (Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
