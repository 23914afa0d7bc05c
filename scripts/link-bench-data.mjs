// The compiled bench (.tmp/bench-dist, `npm run bench`) reads the package's data files as the
// package does, beside its code: data/gazetteer relative to src/places (gazetteerDataDir in
// src/places/gazetteer.ts). This links .tmp/bench-dist/data to the checkout's data folder.
import { rmSync, symlinkSync } from 'node:fs';

const link = '.tmp/bench-dist/data';
rmSync(link, { recursive: true, force: true });
symlinkSync('../../data', link, 'dir');
