/**
 * The rule for a base-map tile URL template (`serve --widget-tiles`, the widget's `tileUrl`):
 * an http(s) URL once its placeholders are filled in, holding `{z}`, `{x}` and `{y}` (without
 * them every map square would show the same image). `{s}` is a subdomain (a, b, c), `{r}` is
 * "@2x" on high-density screens. One rule, used by the command line before any data loads and
 * by the widget when it computes the tiles' origins.
 */

/** The template with `{s}` as the given subdomain and every other placeholder filled in, or undefined when it is no URL. */
export function filledTileUrl(template: string, subdomain: string): URL | undefined {
  try {
    return new URL(template.replace(/\{s\}/g, subdomain).replace(/\{r\}/g, '').replace(/\{[a-z]\}/g, '0'));
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
  const missing = ['{z}', '{x}', '{y}'].filter((p) => !template.includes(p));
  if (missing.length > 0) {
    return `must hold {z}, {x} and {y} (missing ${missing.join(', ')}), e.g. https://tiles.example.org/{z}/{x}/{y}.png; got ${JSON.stringify(template)}`;
  }
  return undefined;
}
