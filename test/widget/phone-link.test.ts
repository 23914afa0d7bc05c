/**
 * Audit 64c F5: the details panel's phone number is a `tel:` link a phone visitor taps to
 * call. Oracle, by hand from test/widget/fixtures/antimeridian.ndjson: "fiji cafe 1" has
 * contactNumber "+679 331 2345", so the link reads that and dials tel:+6793312345.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { widgetSession } from './support/widget-session.js';

describe.skipIf(!chromiumAvailable)('phone number as a tel: link (audit 64c F5)', () => {
  const session = widgetSession({ file: 'test/widget/fixtures/antimeridian.ndjson' });

  it('"fiji cafe 1": the details show "+679 331 2345" as a link to tel:+6793312345', async () => {
    const page = await session.openWidget();
    await page.fill('#find-q', 'fiji cafe 1');
    await page.locator('#results li[data-id="test:fiji-1"] button').first().click();
    const link = page.locator('#details .contact a[href^="tel:"]');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('tel:+6793312345');
    expect(await link.textContent()).toBe('+679 331 2345');
    await page.close();
  });
});
