import type { ServerResponse } from 'node:http';

/** Answers a request the MCP transport never sees with a JSON-RPC error body, unless a reply has already started. */
export function replyError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
