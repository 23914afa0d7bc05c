/**
 * Audit 62c finding 1: a fair meet-up with a quorum ("the best placed 1 of 2") qualifies a
 * venue by its distance from each counted person (docs/search.md, "Fair meeting points"),
 * so the map draws a disc round each person, never one round the group's centre that no
 * result lies in. Oracle: the API's own answer the page received, measured from each drawn
 * disc's centre with turf's geodesic distance; the discs' screen positions against the
 * people's pins (layout boxes, not the page's code).
 */
import { distance, point } from '@turf/turf';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { drawnPoints, mapSettled } from './support/map-dom.js';
import { addPersonByName } from './support/widget-actions.js';
import { widgetSession } from './support/widget-session.js';

interface AnswerVenue {
  readonly name: string;
  readonly location: { readonly coordinates: readonly [number, number] };
}

describe.skipIf(!chromiumAvailable)('quorum meet-up circles (audit 62c finding 1)', () => {
  const session = widgetSession();

  it('MIN_MAX with a quorum of 1 of 2 (London, Manchester): every listed venue lies inside a drawn disc, one per person, centred on their pins', async () => {
    const page = await session.openWidget();
    await addPersonByName(page, 'London');
    await addPersonByName(page, 'Manchester');
    await expect.poll(() => page.locator('#locations li').count()).toBe(2);
    await page.selectOption('#fairness', 'MIN_MAX');
    const answered = page.waitForResponse((r) => r.url().includes('/v1/search/') && (r.request().postData() ?? '').includes('"quorum":1'));
    await page.selectOption('#quorum', '1');
    const response = await answered;
    expect(response.status()).toBe(200);
    const answer = (await response.json()) as { radius: number; establishments: AnswerVenue[] };
    expect(answer.establishments.length).toBeGreaterThan(0);
    await page.click('#zoom-fit');
    await mapSettled(page);

    const circles = await page.$$eval('#map path.radius', (nodes) =>
      nodes.map((n) => {
        const r = n.getBoundingClientRect();
        return { lat: Number(n.getAttribute('data-lat')), lon: Number(n.getAttribute('data-lon')), meters: Number(n.getAttribute('data-meters')), x: r.left + r.width / 2, y: r.top + r.height / 2 };
      }),
    );
    const people = await drawnPoints(page, '#map .person-marker');
    expect(people).toHaveLength(2);
    expect(circles).toHaveLength(2);
    // each disc is drawn round a person's pin, radius the answer's
    for (const person of people) {
      const near = circles.filter((c) => Math.hypot(c.x - person.x, c.y - person.y) < 3);
      expect(near, `a disc round the pin at ${person.lat}, ${person.lon}`).toHaveLength(1);
      expect(near[0]!.meters).toBe(answer.radius);
    }
    // the list never contradicts the map: each venue is within the radius of some disc's centre
    for (const venue of answer.establishments) {
      const [lat, lon] = venue.location.coordinates;
      const nearest = Math.min(...circles.map((c) => distance(point([c.lon, c.lat]), point([lon, lat]), { units: 'meters' })));
      expect(nearest, venue.name).toBeLessThanOrEqual(answer.radius + 1);
    }
    await page.close();
  });
});
