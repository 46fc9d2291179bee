/**
 * `cove serve`: the browser host. The same core as the desktop app (createHost), its contract
 * carried over a WebSocket, the built renderer served next to it. Prints one line with the URL
 * to open (token included) and runs until SIGINT or SIGTERM, then stops every run, closes the
 * store and exits 0.
 *
 * Port: 4455 unless --port says otherwise; when 4455 is taken (a second `cove serve`) it takes
 * any free port rather than failing, since the printed URL names the port anyway. An explicit
 * --port that is taken is an error; --port 0 always takes a free port.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileKeyVault } from '../core/api/api-key';
import { createHost } from '../core/api/host';
import { defaultDataDir } from '../core/store';
import { isWildcardHost, startWebServer } from '../web/server';
import { newToken } from '../web/token';
import type { ServeArgs } from './args';
import { EXIT } from './exit-codes';

export const DEFAULT_PORT = 4455;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/** The bundle is dist/cli.js: the renderer is built next to it, the package file one up. */
function bundleRelative(path: string): string {
  return fileURLToPath(new URL(path, import.meta.url));
}

function packageVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(bundleRelative('../package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

function untilSignal(onSecond: () => void): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (received) return onSecond();
      received = true;
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

export async function serveCommand(args: ServeArgs): Promise<number> {
  const log = (message: string) => process.stderr.write(`cove: ${message}\n`);
  const dataDir = defaultDataDir();
  const rendererDir = bundleRelative('./renderer/');

  const host = createHost({ dataDir, host: 'browser', version: packageVersion(), vault: new FileKeyVault(dataDir), log });
  let server;
  try {
    server = await startWebServer({
      host,
      rendererDir,
      token: args.token ?? newToken(),
      bindHost: args.host,
      port: args.port ?? DEFAULT_PORT,
      fallbackToFreePort: args.port === undefined,
      log,
    });
  } catch (error) {
    await host.close();
    throw error;
  }
  process.stdout.write(`Cove is running at ${server.url}\n`);
  if (!existsSync(join(rendererDir, 'index.html'))) log(`the app is not built (no index.html in ${rendererDir}); pages answer 503 until npm run build`);
  if (!LOOPBACK.test(args.host)) {
    const where = isWildcardHost(args.host) ? 'every network interface' : args.host;
    log(`warning: listening on ${where}: anyone on the network who has the token can run the agent on this machine`);
  }

  await untilSignal(() => process.exit(EXIT.stopped));
  log('stopping…');
  await server.close();
  await host.close();
  return EXIT.ok;
}
