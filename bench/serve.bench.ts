/**
 * `cove serve` from start to a page a person can use, in Chromium: the process starts, prints
 * its URL, the page loads, connects its WebSocket and lists the sessions. The baseline is the
 * floor under it: a bare node:http server of the same built renderer, started the same way,
 * until the same page has rendered (it cannot connect, so it is never usable). The ratio is
 * what the core, the store and the WebSocket add. Each run includes stopping the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, skipReason } from '../test/e2e/support';
import { compare, type Benchmark } from './support';

const root = resolve(import.meta.dirname, '..');
const TOKEN = 'bench-token-0123456789abcdef';

const STATIC_SERVER = `
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
const dir = process.argv[2];
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = http.createServer(async (request, response) => {
  const name = new URL(request.url, 'http://x').pathname === '/' ? 'index.html' : new URL(request.url, 'http://x').pathname.slice(1);
  try {
    const body = await readFile(join(dir, name));
    response.writeHead(200, { 'content-type': types[extname(name)] ?? 'application/octet-stream' });
    response.end(body);
  } catch {
    response.writeHead(404);
    response.end();
  }
});
server.listen(0, '127.0.0.1', () => process.stdout.write('Serving at http://127.0.0.1:' + server.address().port + '/?token=x\\n'));
process.on('SIGINT', () => server.close(() => process.exit(0)));
`;

function startProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  return new Promise((resolveStart, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = /(http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolveStart({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before printing its URL: ${err}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null) return resolveStop();
    child.once('exit', () => resolveStop());
    child.kill('SIGINT');
  });
}

async function visit(browser: Browser, url: string, ready: 'rendered' | 'usable'): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('heading', { name: 'New session' }).waitFor({ timeout: 30_000 });
    if (ready === 'usable') await page.getByText('No sessions yet').waitFor({ timeout: 30_000 });
  } finally {
    await context.close();
  }
}

const benchmark: Benchmark = async () => {
  const why = skipReason();
  if (why) {
    process.stderr.write(`serve.bench: skipped: ${why}\n`);
    return [];
  }
  const work = mkdtempSync(join(tmpdir(), 'cove-serve-bench-'));
  const staticServer = join(work, 'static-server.mjs');
  writeFileSync(staticServer, STATIC_SERVER);
  const rendererDir = join(root, 'dist/renderer');
  if (!existsSync(join(root, 'dist/cli.js'))) throw new Error('serve.bench: build first (node scripts/build.mjs)');
  const browser = await launchChromium();
  let home = 0;
  try {
    const result = await compare({
      name: 'cove serve: start → usable page in Chromium',
      goal: 2,
      runs: 7,
      baseline: {
        label: 'static node:http + page rendered',
        async run() {
          const { child, url } = await startProcess([staticServer, rendererDir], { PATH: process.env.PATH });
          try {
            await visit(browser, url, 'rendered');
          } finally {
            await stop(child);
          }
        },
      },
      cove: {
        label: 'cove serve + sessions listed',
        async run() {
          // A fresh data folder each time: the first start creates and migrates the store.
          const dataDir = join(work, `home-${home++}`);
          const env = { PATH: process.env.PATH, HOME: process.env.HOME, COVE_HOME: dataDir, ANTHROPIC_API_KEY: 'bench-key' };
          const { child, url } = await startProcess([join(root, 'bin/cove.js'), 'serve', '--port', '0', '--token', TOKEN], env);
          try {
            await visit(browser, url, 'usable');
          } finally {
            await stop(child);
          }
        },
      },
    });
    return [result];
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
};

export default benchmark;
