/** Little-endian ISO WKB of a point (byte order 1, type 1, x = lon, y = lat), built by hand: what Overture's geometry column holds. */
export function wkbPoint(lon: number, lat: number): Uint8Array {
  const b = Buffer.alloc(21);
  b[0] = 1;
  b.writeUInt32LE(1, 1);
  b.writeDoubleLE(lon, 5);
  b.writeDoubleLE(lat, 13);
  return new Uint8Array(b);
}

/** {@link wkbPoint} as hex, for DuckDB's from_hex. */
export function wkbPointHex(lon: number, lat: number): string {
  return Buffer.from(wkbPoint(lon, lat)).toString('hex');
}
