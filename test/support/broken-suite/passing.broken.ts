// The control: a healthy module beside the broken ones.
import { expect, it } from 'vitest';

it('passes', () => expect(2 + 2).toBe(4));
