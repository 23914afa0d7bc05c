/**
 * Audit 62c finding 3: a misspelt place name keeps the service's suggestions. Oracle: the
 * API's own answer to the same call (GET /v1/find with `location`), read here from the
 * server, and the place the API resolves for the suggested name.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { widgetSession } from './support/widget-session.js';

describe.skipIf(!chromiumAvailable)('place-name suggestions (audit 62c finding 3)', () => {
  const session = widgetSession();

  const find = async (name: string): Promise<{ status: number; body: { message?: string; suggestions?: string[]; resolvedPlace?: { name: string; Lat: number; Lon: number } } }> => {
    const url = `${session.server.base}/v1/find?q=${encodeURIComponent(name)}&location=${encodeURIComponent(name)}&limit=1`;
    const response = await fetch(url, { headers: { 'API-Key': session.publicKey } });
    return { status: response.status, body: (await response.json()) as never };
  };

  it('"Shordich": the API\'s "did you mean" names are offered under the field, in its order, and choosing one adds that place', async () => {
    const api = await find('Shordich');
    expect(api.status).toBe(400);
    const meant = /did you mean (.*)\?$/.exec(api.body.message ?? '')?.[1] ?? '';
    expect(meant).toContain('"Shoreditch"');
    const page = await session.openWidget();
    await page.check('input[name="mode"][value="meet"]');
    await page.fill('#place-name', 'Shordich');
    await page.click('#place-form button[type="submit"]');
    await page.waitForSelector('#place-error:not([hidden])');
    const offered = await page.locator('#place-error button').allTextContents();
    // each button is one of the API's quoted names, all of them, in order
    expect(offered.map((n) => JSON.stringify(n)).join(' ')).toBe(meant.replace(/, | or /g, ' '));
    expect(await page.textContent('#place-error')).toContain('"Shordich" is not a place the service knows. Did you mean Shoreditch');

    await page.click('#place-error button:text-is("Shoreditch")');
    await page.waitForSelector('#locations li');
    const resolved = (await find('Shoreditch')).body.resolvedPlace!;
    expect(await page.textContent('#locations li .person-name')).toBe(resolved.name);
    expect(await page.textContent('#locations li .coords')).toBe(`${resolved.Lat.toFixed(4)}, ${resolved.Lon.toFixed(4)}`);
    expect(await page.locator('#place-error').isHidden()).toBe(true);
    await page.close();
  });

  it('"St Ives, Devon" (a known name in an area it is not in): the service\'s words and its suggestions as buttons, never "not a place the service knows" (audit 63a F4)', async () => {
    const api = await find('St Ives, Devon');
    expect(api.status).toBe(400);
    expect(api.body.suggestions).toEqual(['St Ives, Cornwall', 'St Ives, Cambridgeshire', 'St Ives, Hampshire']);
    const page = await session.openWidget();
    await page.check('input[name="mode"][value="meet"]');
    await page.fill('#place-name', 'St Ives, Devon');
    await page.click('#place-form button[type="submit"]');
    await page.waitForSelector('#place-error:not([hidden])');
    expect(await page.locator('#place-error button').allTextContents()).toEqual(api.body.suggestions);
    const text = (await page.textContent('#place-error')) ?? '';
    expect(text).not.toContain('not a place the service knows');
    expect(text).toBe('"St Ives, Devon": no St Ives in Devon; St Ives is in Cornwall, Cambridgeshire and Hampshire. Did you mean St Ives, Cornwall, St Ives, Cambridgeshire or St Ives, Hampshire?');

    await page.click('#place-error button:text-is("St Ives, Cambridgeshire")');
    await page.waitForSelector('#locations li');
    const resolved = (await find('St Ives, Cambridgeshire')).body.resolvedPlace!;
    expect(await page.textContent('#locations li .coords')).toBe(`${resolved.Lat.toFixed(4)}, ${resolved.Lon.toFixed(4)}`);
    expect(await page.locator('#place-error').isHidden()).toBe(true);
    await page.close();
  });
});
