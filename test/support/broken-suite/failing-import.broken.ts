// Deliberately broken: the module throws while it is collected, before any test exists.
import { it } from 'vitest';

throw new Error('deliberate collection failure');
it('never collected', () => {});
