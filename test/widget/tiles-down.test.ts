/**
 * Audit 62c finding 2: operator tiles that cannot be loaded (a tile server answering 503 to
 * every tile, as one that is down behind its proxy does) give way to the offline base and
 * its place names, and the map says so. Oracles: a screenshot's pixels at points placed by
 * the slippy-map formula (land colour inland, sea colour at sea), the labels drawn, and the
 * tile server's own request log.
 */
import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { inside, mapBox, mapSettled } from './support/map-dom.js';
import { onePixelRgb } from './support/png-pixel.js';
import { startWidgetServer } from './support/widget-server.js';
import { widgetSession } from './support/widget-session.js';

const LAND: [number, number, number] = [0xf3, 0xef, 0xe6];
const SEA: [number, number, number] = [0xcf, 0xe0, 0xec];

function worldPixel(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const size = 256 * 2 ** zoom;
  const phi = (lat * Math.PI) / 180;
  return { x: ((lon + 180) / 360) * size, y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size };
}

/** A tile server that fails every tile, on the first free port of 19540-19559. */
async function failingTileServer(requested: string[]): Promise<{ server: Server; port: number }> {
  for (let port = 19540; port < 19560; port++) {
    const server = createServer((req, res) => {
      requested.push(req.url ?? '');
      res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
    });
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (ok) return { server, port };
  }
  throw new Error('no free port in 19540-19559');
}

describe.skipIf(!chromiumAvailable)('operator tiles unreachable (audit 62c finding 2)', () => {
  const session = widgetSession();

  it('every tile failing: the offline base (land and sea at the right pixels) and place names are drawn, a note says why, and no more tiles are asked for', async () => {
    const requested: string[] = [];
    const { server: tiles, port } = await failingTileServer(requested);
    const tiled = await startWidgetServer({ widget: { tileUrl: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`, tileAttribution: '© Test tiles' } });
    try {
      const key = (await tiled.open('Enterprise')).publicKey;
      const page = await session.browser.context.newPage();
      await page.goto(`${tiled.base}/v1/widget/?key=${key}`);
      await page.waitForSelector('body[data-ready="true"]');
      await expect.poll(() => requested.length).toBeGreaterThan(0);
      await page.waitForSelector('#map[data-base-drawn]', { timeout: 10_000 });
      expect(await page.getAttribute('#map', 'data-base')).toBe('offline');
      expect(Number(await page.getAttribute('#map', 'data-base-drawn'))).toBeGreaterThan(100);
      expect(await page.locator('#map .map-note').textContent()).toBe('The map tiles could not be loaded: showing the offline map.');
      await mapSettled(page);
      const frame = await mapBox(page);
      const view = await page.$eval('#map', (el) => ({ lat: Number(el.getAttribute('data-centre-lat')), lon: Number(el.getAttribute('data-centre-lon')), zoom: Number(el.getAttribute('data-zoom')) }));
      const centre = worldPixel(view.lat, view.lon, view.zoom);
      const colourAt = async (lat: number, lon: number): Promise<[number, number, number]> => {
        const p = worldPixel(lat, lon, view.zoom);
        const x = Math.round((frame.left + frame.right) / 2 + p.x - centre.x);
        const y = Math.round((frame.top + frame.bottom) / 2 + p.y - centre.y);
        expect(inside({ left: x, right: x, top: y, bottom: y }, frame), `${lat},${lon} in view`).toBe(true);
        return onePixelRgb(await page.screenshot({ clip: { x, y, width: 1, height: 1 } }));
      };
      const near = (c: [number, number, number], want: [number, number, number]) => c.every((v, i) => Math.abs(v - want[i]!) <= 3);
      for (const [lat, lon] of [[52.3, -3.6], [52.3, -0.9]] as const) expect(near(await colourAt(lat, lon), LAND), `${lat},${lon} land`).toBe(true);
      for (const [lat, lon] of [[54.5, 1.5], [54.0, -5.3]] as const) expect(near(await colourAt(lat, lon), SEA), `${lat},${lon} sea`).toBe(true);
      await expect.poll(() => page.locator('#map .place-label').allTextContents()).toEqual(expect.arrayContaining(['London', 'Birmingham']));
      // the tiles are given up: zooming asks the tile server for nothing more
      const asked = requested.length;
      await page.click('#zoom-in');
      await mapSettled(page);
      await page.waitForTimeout(300);
      expect(requested.length).toBe(asked);
      await page.close();
    } finally {
      await tiled.close();
      tiles.closeAllConnections();
      await new Promise((resolve) => tiles.close(resolve));
    }
  });
});
