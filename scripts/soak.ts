/**
 * `npm run soak`: the reliability suite (test/reliability) at full size: 10,000 runs per
 * hostile-input property, 30 s of load, a 1,000,000-line NDJSON with 1 % bad lines, ten
 * SIGKILL/restart cycles (sizes in test/reliability/support/scale.ts). Same tests as
 * `npm test`, larger; exits with vitest's status. Replay a property failure with
 * VENUE_SEARCH_SEED=<seed printed by the failing run>.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const result = spawnSync(
  process.execPath,
  [vitest, 'run', 'test/reliability', '--testTimeout=1800000', '--hookTimeout=1800000', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, VENUE_SEARCH_SOAK: '1' } },
);
process.exit(result.status ?? 1);
