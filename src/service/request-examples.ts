/**
 * The request bodies the OpenAPI document shows (audit 73f F1: it showed none), as named
 * examples of the search operation's JSON body (OpenAPI's Media Type Object `examples`): the
 * README's POINT search, two friends in Camden and Soho (README, "The two commands"), and a
 * PATH search along a walk. test/http/openapi.test.ts checks each against the document with
 * a validator of its own, has the service answer each, and the README's body equal the first.
 */
type Json = unknown;

export const SEARCH_BODY_EXAMPLES: Readonly<Record<string, { readonly summary: string; readonly value: Json }>> = {
  pointNearTwoFriends: {
    summary: 'POINT: vegan-friendly venues open now within 1.5 km of a fair point between Camden and Soho',
    value: {
      locations: [
        { lat: 51.539, lon: -0.1426, label: 'Camden' },
        { lat: 51.5136, lon: -0.1365, label: 'Soho' },
      ],
      mode: { mode: 'POINT', maxDistance: 1500 },
      preferences: { catersFilters: ['vegan'], openingConditions: { state: 'OPEN' } },
    },
  },
  pathAlongAWalk: {
    summary: "PATH: pubs within 300 m of a walk from King's Cross to Waterloo",
    value: {
      locations: [
        { lat: 51.5308, lon: -0.1238, label: "King's Cross" },
        { lat: 51.5033, lon: -0.1195, label: 'Waterloo' },
      ],
      mode: { mode: 'PATH', maxDistance: 300 },
      preferences: { establishmentFilters: ['pub'] },
    },
  },
};

/** `paths` with the search operation's examples on its JSON body (at `<prefix>/search/` and its twin without the slash). */
export function withRequestExamples(paths: Record<string, Json>, prefix: string): Record<string, Json> {
  const out = { ...paths };
  for (const path of [`${prefix}/search/`, `${prefix}/search`]) {
    const item = out[path] as { post?: { requestBody?: { content?: Record<string, Record<string, Json>> } } } | undefined;
    const media = item?.post?.requestBody?.content?.['application/json'];
    if (item === undefined || media === undefined) continue;
    out[path] = {
      ...item,
      post: { ...item.post, requestBody: { ...item.post!.requestBody, content: { ...item.post!.requestBody!.content, 'application/json': { ...media, examples: SEARCH_BODY_EXAMPLES } } } },
    };
  }
  return out;
}
