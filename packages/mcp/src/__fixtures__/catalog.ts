// The deferred catalog of the toolhost-mcp tests and the e2e sessions (toolhost-mcp loads it with --catalog).
import type { CatalogEntry } from 'toolhost';

const catalog: CatalogEntry[] = [
  {
    name: 'github_create_issue',
    description: 'Create a GitHub issue in a repository.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    handler: (args) => `Created issue "${String(args.title)}" as #1`,
  },
];

export default catalog;
