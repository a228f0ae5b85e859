#!/usr/bin/env node
// toolhost-mcp: serves toolhost's tools over MCP on stdin/stdout, or over streamable HTTP with --http; the tools run in
// a local folder, a container or on an SSH host.
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

const log = (line: string) => process.stderr.write(`toolhost-mcp: ${line}\n`);

async function main(): Promise<number | undefined> {
  const options = parseCliOptions(process.argv.slice(2), process.cwd(), resolve, process.env);
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
  const [{ cliSessions }, { createMcpServer, createMcpHttpServer }] = await Promise.all([import('./cli-target.js'), import('./index.js')]);
  const catalog = options.catalog ? await loadCatalog(options.catalog) : undefined;
  const sessions = await cliSessions(options.target, { profile: options.profile, shellProfile: options.shellProfile, catalog });
  // One host before serving: a target that cannot work (no engine, no image, an untrusted host) fails here, not in a session.
  const first = await sessions.createHost();
  const perSession = options.target.kind === 'docker-image';
  if (options.http) {
    await first.close();
    const http = createMcpHttpServer({
      createHost: () => sessions.createHost(),
      token: token as string,
      allowedOrigins: options.allowedOrigins,
      idleTimeoutMs: options.idleTimeoutMs,
      onSessionEnd: (id, reason) => {
        const removed = perSession ? '; its container was removed' : '';
        if (reason === 'idle') log(`session ${id} ended after going idle; its processes were killed${removed}`);
        else if (perSession) log(`session ${id} ended (${reason})${removed}`);
      },
    });
    const address = await http.listen(options.http.port, options.http.hostname);
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    log(`each session's tools run in ${sessions.description}`);
    log(`listening on http://${shown}:${address.port}/mcp`);
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
  const server = createMcpServer(first);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => {});
    await first.close();
    process.exit(0);
  };
  server.onclose = () => void shutdown();
  process.stdin.on('end', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  if (options.target.kind !== 'workspace') log(`tools run in ${sessions.description}`);
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
