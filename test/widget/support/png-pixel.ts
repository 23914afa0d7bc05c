/**
 * The colour of a one-pixel PNG (a screenshot clipped to 1 x 1), decoded by hand: the image
 * data is the IDAT chunks inflated; a single pixel is one filter byte then its samples, and
 * every PNG filter leaves a first pixel unchanged (its neighbours count as zero).
 */
import { inflateSync } from 'node:zlib';

export function onePixelRgb(png: Buffer): [number, number, number] {
  let offset = 8; // signature
  let colourType = -1;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      if (body.readUInt32BE(0) !== 1 || body.readUInt32BE(4) !== 1 || body[8] !== 8) throw new Error('not a 1 x 1, 8-bit PNG');
      colourType = body[9]!;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  if (colourType !== 2 && colourType !== 6) throw new Error(`PNG colour type ${colourType} is not RGB or RGBA`);
  const raw = inflateSync(Buffer.concat(data));
  return [raw[1]!, raw[2]!, raw[3]!];
}
