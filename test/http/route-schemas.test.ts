/**
 * The request validators are compiled without checking each schema against the JSON Schema
 * meta-schema (validation.ts, `validateSchema: false`: that check cost ~30 ms of every
 * start). The check lives here instead: every schema the app compiles into a validator, on
 * the public routes and the operator routes, is valid draft-07 JSON Schema by a separate ajv's
 * own meta-schema validation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { buildApp } from '../../src/http/app.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { FIXTURES_PATH } from '../search/support.js';

const tmp = mkdtempSync(join(tmpdir(), 'route-schemas-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('route schemas', () => {
  it('every schema compiled into a request validator passes the draft-07 meta-schema', async () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    const load = async (path: string) => (await loadEngineFile(path, (m) => { throw new Error(m); })).engine;
    const live = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir: tmp, compactAfter: 0, load });
    const accounts = new SqliteAccountsStore(':memory:');
    const app = await buildApp({ engine: live.engine, accounts, admin: { live, token: 'operator-token-0123456789abcdef', bodyLimitBytes: 1 << 20 } });
    await app.ready();
    const schemas = compile.mock.calls.map(([schema]) => schema as Record<string, unknown>);
    compile.mockRestore();
    await app.close();
    await accounts.close();
    await live.close();

    const checker = new Ajv({ strict: false });
    // the check can fail: a misspelt type is refused
    expect(checker.validateSchema({ type: 'object', properties: { q: { type: 'strng' } } })).toBe(false);
    // the search body, the find and paging query strings, the venue id parameters...
    expect(schemas.length).toBeGreaterThanOrEqual(10);
    expect(schemas.some((s) => JSON.stringify(s.required) === '["locations","mode"]')).toBe(true);
    for (const schema of schemas) {
      const valid = checker.validateSchema(schema);
      expect(valid, `${JSON.stringify(schema).slice(0, 120)}: ${checker.errorsText(checker.errors)}`).toBe(true);
    }
  });
});
