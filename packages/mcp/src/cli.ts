#!/usr/bin/env node
// toolhost-mcp: serves a workspace's tools over MCP on stdin/stdout, or over streamable HTTP with --http.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CatalogEntry } from 'toolhost';
import { CLI_USAGE, parseCliOptions } from './cli-options.js';

async function loadCatalog(path: string): Promise<CatalogEntry[]> {
  const module = (await import(pathToFileURL(path).href)) as { default?: unknown; catalog?: unknown };
  const entries = module.catalog ?? module.default;
  if (!Array.isArray(entries)) throw new Error(`--catalog ${path} must export an array of catalog entries (default export or "catalog")`);
  return entries as CatalogEntry[];
}

async function main(): Promise<number | undefined> {
  const options = parseCliOptions(process.argv.slice(2), process.cwd(), resolve);
  if ('help' in options) {
    process.stdout.write(`${CLI_USAGE}\n`);
    return 0;
  }
  if ('error' in options) {
    process.stderr.write(`toolhost-mcp: ${options.error}\n${CLI_USAGE}\n`);
    return 2;
  }
  let token = options.token;
  if (options.tokenFile !== undefined) {
    token = readFileSync(options.tokenFile, 'utf8').split(/\r?\n/)[0].trim();
    if (!token) throw new Error(`--token-file ${options.tokenFile} holds no token`);
  }
  // Loaded only once the options are valid, so `--help` and usage errors answer at once.
  const [{ createToolHost }, { createMcpServer, createMcpHttpServer }] = await Promise.all([import('toolhost'), import('./index.js')]);
  const catalog = options.catalog ? await loadCatalog(options.catalog) : undefined;
  const createHost = () => createToolHost({ workspace: options.workspace, profile: options.profile, shellProfile: options.shellProfile, catalog });
  if (options.http) {
    const http = createMcpHttpServer({
      createHost,
      token: token as string,
      allowedOrigins: options.allowedOrigins,
      idleTimeoutMs: options.idleTimeoutMs,
      onSessionEnd: (id, reason) => {
        if (reason === 'idle') process.stderr.write(`toolhost-mcp: session ${id} ended after going idle; its processes were killed\n`);
      },
    });
    const address = await http.listen(options.http.port, options.http.hostname);
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    process.stderr.write(`toolhost-mcp: listening on http://${shown}:${address.port}/mcp\n`);
    let closing = false;
    const shutdown = async () => {
      if (closing) return;
      closing = true;
      await http.close();
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown());
    process.on('SIGTERM', () => void shutdown());
    return undefined;
  }
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const host = createHost();
  const server = createMcpServer(host);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => {});
    await host.close();
    process.exit(0);
  };
  server.onclose = () => void shutdown();
  process.stdin.on('end', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await server.connect(new StdioServerTransport());
  return undefined;
}

main().then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`toolhost-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
