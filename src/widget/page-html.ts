/**
 * The widget's HTML, rendered by the service (src/widget/widget-page.ts, routes in src/http/v1/widget-routes.ts). The markup holds
 * every control with its label, so the page is usable with a keyboard and a screen reader;
 * the script (page/widget.ts) fills the lists and the map. Configuration travels in a JSON
 * data block (`type="application/json"`), which browsers never execute, so the page needs
 * no inline script under its Content-Security-Policy. The API key is never written into the
 * HTML: the script reads it from the page's own URL.
 */
import { MAX_PATH_DISTANCE_METERS, MAX_POINT_DISTANCE_METERS } from '../schema/search-limits.js';

/** What the script reads from the `widget-config` data block. */
export interface WidgetConfig {
  /** GET /v1/vocabulary's answer, embedded so a public key needs no extra call. */
  readonly vocabulary: unknown;
  /** Where most venues are, degrees (src/spatial/venue-extent.ts): the map opens on it; null: the default view. */
  readonly venueExtent: { readonly south: number; readonly west: number; readonly north: number; readonly east: number } | null;
  /** Base-map tile URL template (`{z}`, `{x}`, `{y}`, optional `{s}`, `{r}`), or null for the offline base. */
  readonly tileUrl: string | null;
  readonly tileAttribution: string | null;
  /** The offline base map's TopoJSON (relative to the page), or null (no world-atlas); with tiles, loaded only if they fail. */
  readonly baseMapHref: string | null;
  /** The place labels' JSON (relative to the page), or null; with tiles, loaded only if they fail. */
  readonly placeLabelsHref: string | null;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** JSON safe inside a `<script type="application/json">` block (no `</script>`, no `<!--`). */
function jsonForScriptBlock(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function head(stylesheetHref: string | undefined, extra = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Venue search</title>
<link rel="icon" href="data:,">
${stylesheetHref === undefined ? '' : `<link rel="stylesheet" href="${escapeHtml(stylesheetHref)}">`}
${extra}
</head>`;
}

/**
 * A page that only explains why the widget cannot run (bad key, origin not allowed, assets
 * not built). `message` is plain text and is escaped; it must never contain the key.
 */
export function widgetMessageHtml(title: string, message: string, stylesheetHref?: string): string {
  return `${head(stylesheetHref)}
<body class="message-page">
<main class="message">
<h1>${escapeHtml(title)}</h1>
<p role="alert">${escapeHtml(message)}</p>
</main>
</body>
</html>
`;
}

function checkboxGroupPlaceholder(id: string, legend: string): string {
  return `<fieldset class="choices" id="${id}"><legend>${legend}</legend></fieldset>`;
}

/** The widget page itself. Asset hrefs are relative to /v1/widget/. */
export function widgetPageHtml(config: WidgetConfig, assets: { scriptHref: string; stylesheetHref: string }): string {
  const configBlock = `<script type="application/json" id="widget-config">${jsonForScriptBlock(config)}</script>
<script src="${escapeHtml(assets.scriptHref)}" defer></script>`;
  return `${head(assets.stylesheetHref, configBlock)}
<body>
<div class="app">
<header class="top">
<h1>Venue search</h1>
<fieldset class="modes">
<legend class="sr-only">Mode</legend>
<label><input type="radio" name="mode" value="find" checked> Find by name</label>
<label><input type="radio" name="mode" value="meet"> Meet up</label>
<label><input type="radio" name="mode" value="route"> Route</label>
</fieldset>
</header>
<div id="notice" class="notice" role="alert" hidden></div>
<main class="layout">
<section class="side" aria-label="Search">
<div id="find-panel" class="panel">
<label for="find-q">Venue name</label>
<input id="find-q" type="search" autocomplete="off" spellcheck="false" placeholder="e.g. Nando's" aria-describedby="find-hint">
<p id="find-hint" class="hint">Results appear as you type.</p>
</div>
<div id="meet-panel" class="panel" hidden>
<p class="hint">Add two or more people: click the map (or press Enter on it), or type a place name. Weights are optional (a person with weight 2 counts twice).</p>
<form id="place-form" class="row">
<label for="place-name" class="sr-only">Place name</label>
<input id="place-name" type="text" autocomplete="off" placeholder="Place name, e.g. Leeds" aria-describedby="place-error place-note">
<button type="submit">Add person</button>
</form>
<p id="place-error" class="field-error" hidden></p>
<p id="place-note" class="hint" hidden></p>
<ol id="locations" class="locations" aria-label="People"></ol>
<label for="radius">Radius (metres)</label>
<input id="radius" type="number" min="1" max="${MAX_POINT_DISTANCE_METERS}" step="1" value="1000" required aria-describedby="radius-limits radius-error">
<p id="radius-limits" class="hint">A whole number, 1 to ${MAX_POINT_DISTANCE_METERS.toLocaleString('en-GB')}.</p>
<p id="radius-error" class="field-error" hidden></p>
<fieldset class="fairness">
<legend>Fair for the group</legend>
<label for="fairness">Rank venues by</label>
<select id="fairness">
<option value="CENTRE">Distance from the group's centre</option>
<option value="MIN_MAX">Shortest longest trip</option>
<option value="MIN_TOTAL">Least travel in total</option>
</select>
<label for="quorum">Who must be able to come</label>
<select id="quorum" disabled><option value="">Everyone</option></select>
</fieldset>
</div>
<div id="route-panel" class="panel" hidden>
<p class="hint">Click the map (or press Enter on it) to draw the route, point by point.</p>
<p id="route-summary" class="summary">No route points yet.</p>
<div class="row">
<button id="route-undo" type="button">Remove last point</button>
<button id="route-clear" type="button">Clear route</button>
</div>
<label for="corridor">Distance from the route (metres)</label>
<input id="corridor" type="number" min="1" max="${MAX_PATH_DISTANCE_METERS}" step="1" value="500" required aria-describedby="corridor-limits corridor-error">
<p id="corridor-limits" class="hint">A whole number, 1 to ${MAX_PATH_DISTANCE_METERS.toLocaleString('en-GB')}.</p>
<p id="corridor-error" class="field-error" hidden></p>
</div>
<details id="prefs" class="prefs">
<summary>Preferences</summary>
${checkboxGroupPlaceholder('pref-kinds', 'Kinds')}
${checkboxGroupPlaceholder('pref-diet', 'Dietary needs')}
<fieldset class="opening">
<legend>Opening</legend>
<label for="open-mode">Open</label>
<select id="open-mode">
<option value="any">Any time</option>
<option value="now">Open now</option>
<option value="at">Open at a chosen time</option>
</select>
<label for="open-at" class="sr-only">Date and time</label>
<input id="open-at" type="datetime-local" hidden aria-describedby="open-at-zone">
<p id="open-at-zone" class="hint" hidden></p>
</fieldset>
<label class="check"><input type="checkbox" id="independent"> Independent venues only</label>
${checkboxGroupPlaceholder('pref-vibes', 'Vibes')}
</details>
<button id="search-button" class="primary" type="button" hidden>Search</button>
<h2 id="results-heading">Results</h2>
<p id="results-status" class="status" role="status" aria-live="polite">Loading the widget…</p>
<p id="announce" class="sr-only" role="status" aria-live="polite"></p>
<button id="widen-radius" type="button" hidden></button>
<ol id="results" class="results" aria-labelledby="results-heading"></ol>
<button id="show-more" type="button" hidden>Show more</button>
</section>
<section class="map-wrap" aria-label="Map">
<div id="map" class="map" role="application" aria-roledescription="map" aria-label="Map. Drag or use the arrow keys to pan, plus and minus to zoom. In meet up and route modes, click or press Enter to add the point at the centre. The results list has every venue on the map."></div>
<div class="map-buttons">
<button id="zoom-in" type="button" aria-label="Zoom in">+</button>
<button id="zoom-out" type="button" aria-label="Zoom out">&#8722;</button>
<button id="zoom-fit" type="button" aria-label="Fit the map to the search">&#9635;</button>
</div>
</section>
<aside id="details" class="details" aria-labelledby="details-name" tabindex="-1" hidden></aside>
</main>
</div>
</body>
</html>
`;
}
