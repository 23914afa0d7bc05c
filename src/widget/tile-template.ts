/**
 * The rule for a base-map tile URL template (`serve --widget-tiles`, the widget's `tileUrl`):
 * an http(s) URL once its placeholders are filled in, holding `{z}`, `{x}` and `{y}` (without
 * them every map square would show the same image; `{-y}`, the row counted from the south as
 * TMS servers number it, stands for `{y}`). `{s}` is a subdomain (a, b, c), `{r}` is "@2x" on
 * high-density screens. No other placeholder: Leaflet's tile layer fills only these (an
 * API key written `{apikey}` would fail every tile: the key goes in the URL itself). One rule,
 * used by the command line before any data loads and by the widget when it computes the
 * tiles' origins.
 */

/** The placeholders Leaflet's tile layer fills for the widget (TileLayer.getTileUrl). */
const TILE_PLACEHOLDERS = ['{s}', '{z}', '{x}', '{y}', '{-y}', '{r}'];

/** The template with `{s}` as the given subdomain and every other placeholder filled in, or undefined when it is no URL. */
export function filledTileUrl(template: string, subdomain: string): URL | undefined {
  try {
    return new URL(template.replace(/\{s\}/g, subdomain).replace(/\{r\}/g, '').replace(/\{(?:[a-z]|-y)\}/g, '0'));
  } catch {
    return undefined;
  }
}

/** What is wrong with a tile URL template, as the end of a sentence ("must ..."), or undefined when it is usable. */
export function tileTemplateProblem(template: string): string | undefined {
  const url = filledTileUrl(template, 'a');
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return `must be an http(s) URL template such as https://tiles.example.org/{z}/{x}/{y}.png; got ${JSON.stringify(template)}`;
  }
  const unknown = [...new Set(template.match(/\{[^{}]*\}/g) ?? [])].filter((p) => !TILE_PLACEHOLDERS.includes(p));
  if (unknown.length > 0) {
    return `holds ${unknown.join(', ')}, which the map cannot fill (it fills ${TILE_PLACEHOLDERS.join(', ')}): write an API key or other value into the URL itself; got ${JSON.stringify(template)}`;
  }
  const missing = ['{z}', '{x}', '{y}'].filter((p) => !template.includes(p) && !(p === '{y}' && template.includes('{-y}')));
  if (missing.length > 0) {
    return `must hold {z}, {x} and {y} (missing ${missing.join(', ')}), e.g. https://tiles.example.org/{z}/{x}/{y}.png; got ${JSON.stringify(template)}`;
  }
  return undefined;
}
