export { searchToolsSchema, type SearchToolsArgs } from './search-tools-schema.js';
export type { CatalogEntry, CatalogMatch } from './catalog-entry.js';
export { createToolCatalog, type ToolCatalog } from './tool-catalog.js';
export { createSearchToolsTool, catalogEntrySchema, type SearchToolsOptions } from './search-tools-tool.js';
