/**
 * Whether `serve` can listen where it is told, asked before the venue data loads (minutes on
 * a large file), and what a failure to listen means in words. Before, a port in use or a
 * privileged one was said only once the data had loaded, as Node's errno ("bind EACCES
 * 127.0.0.1:80"): audit 73d F6.
 */
import { createServer } from 'node:net';

/** Why listening on `host`:`port` failed with `err`, for an operator: the cause and what to change. */
export function listenProblem(err: unknown, host: string, port: number): string {
  const where = `${host}:${port}`;
  switch ((err as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is in use by another program (another serve?): stop it, or give another --port`;
    case 'EACCES':
      return port < 1024
        ? `cannot listen on ${where}: ports below 1024 need root (or CAP_NET_BIND_SERVICE): give --port 1024 or above, and put a proxy in front for port ${port}`
        : `cannot listen on ${where}: permission denied`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${host} is not an address of this machine: check --host`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: the host name ${host} does not resolve: check --host`;
    default:
      return `cannot listen on ${where}: ${(err as Error).message}`;
  }
}

/** Null when a server can listen on `host`:`port` now (checked by listening and closing at once), else {@link listenProblem}. Port 0 (any) is not checked. */
export async function listenPrecheck(host: string, port: number): Promise<string | null> {
  if (port === 0) return null;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port, host, exclusive: true }, resolve);
    });
    return null;
  } catch (err) {
    return listenProblem(err, host, port);
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}
