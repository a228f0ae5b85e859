export { searchToolsSchema, type SearchToolsArgs } from './search-tools-schema.js';
export type { CatalogEntry, CatalogMatch } from './catalog-entry.js';
export { createToolCatalog, type ToolCatalog } from './tool-catalog.js';
export { createSearchToolsTool, type SearchToolsOptions } from './search-tools-tool.js';
export { catalogEntrySchema, isZodInputSchema } from './catalog-entry-schema.js';
