// The deferred catalog of the e2e sessions (also loaded by toolhost-mcp with --catalog).
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
