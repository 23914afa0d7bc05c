import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isVenueSearchError, readSnapshot, validateVenue, writeSnapshot } from 'venue-search-engine';

// A service that embeds the engine and takes a feed of venue changes every minute.
// `feed.changesSince(cursor)` answers `{ changes, cursor }`: the changes made upstream after
// `cursor`, in order, each `{ venue: record }` (added or replaced) or `{ removed: id }`, and
// the position to ask from next time. The feed keeps its changes for at least a day.
//
// What is durable: the snapshot and, beside it, the feed position it holds. Between two
// saves the changes live in memory only; after a crash the service restarts from the last
// save and asks the feed again from that save's position, so nothing is lost. Applying a
// change twice is harmless: each sets a venue's state.
export function openFeedService({ snapshot, feed, report = console.warn }) {
  const cursorFile = `${snapshot}.cursor`;
  // Warmed for changes: the first find naming a place after a change then reads no address
  // (at 1M venues with addresses that read takes seconds).
  const engine = readSnapshot(snapshot).warm({ forChanges: true });
  let cursor = existsSync(cursorFile) ? JSON.parse(readFileSync(cursorFile, 'utf8')).cursor : null;

  // Every minute.
  async function applyFeed() {
    const { changes, cursor: next } = await feed.changesSince(cursor);
    const latest = new Map(); // id -> its last state: a record, or null once removed
    changes.forEach((change, k) => {
      if (change.removed !== undefined) return void latest.set(change.removed, null);
      try {
        validateVenue(change.venue, { line: k + 1 });
        latest.set(change.venue.id, change.venue);
      } catch (err) {
        if (!isVenueSearchError(err)) throw err;
        report(`feed change skipped: ${err.message}`); // one bad record does not hold up the rest
      }
    });
    const upserts = [...latest.values()].filter((record) => record !== null);
    const removals = [...latest.keys()].filter((id) => latest.get(id) === null);
    engine.upsert(upserts); // validated above: this cannot refuse them
    const { unknown } = engine.remove(removals); // already gone: fine
    if (unknown.length > 0) report(`${unknown.length} removals of venues not held`);
    cursor = next;
  }

  // Nightly (or every N changes): fold the changes in, then save the state and its position.
  function save() {
    engine.compact();
    writeSnapshot(engine, snapshot); // written aside, then renamed into place
    writeFileSync(`${cursorFile}.part`, JSON.stringify({ cursor }));
    renameSync(`${cursorFile}.part`, cursorFile);
    // A crash between the two renames leaves the new snapshot with the old position: the
    // feed is asked again from there, and the changes already in the snapshot are set again.
  }

  return { engine, applyFeed, save };
}

// const service = openFeedService({ snapshot: 'venues.vsnap', feed: myFeed });
// await service.applyFeed(); // catch up from the saved position before answering
// setInterval(() => service.applyFeed().catch((err) => console.error(err)), 60_000);
// nightly: service.save();
