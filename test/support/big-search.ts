/**
 * The billing tests' large answer: a POINT search of 100 venues around central London on the
 * bundled fixtures, about 120 KB on the wire, so that a few of them fill a connection's buffers.
 */
const BODY = JSON.stringify({ locations: [{ lat: 51.5085, lon: -0.1257 }], mode: { mode: 'POINT', maxDistance: 50_000 } });

/** The raw HTTP/1.1 request of that search with API key `key`; `close`: it asks for `Connection: close`. */
export function bigSearchRequest(key: string, close = false): string {
  return `POST /v1/search/?limit=100 HTTP/1.1\r\nHost: x\r\nAPI-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\n${close ? 'Connection: close\r\n' : ''}\r\n${BODY}`;
}
