export { searchToolsSchema, searchToolsDataSchema, type SearchToolsArgs, type SearchToolsData } from './search-tools-schema.js';
export type { CatalogEntry, CatalogMatch } from './catalog-entry.js';
export { createToolCatalog, type ToolCatalog, type ToolCatalogOptions } from './tool-catalog.js';
export type { CatalogEmbedder } from './catalog-embeddings.js';
export { createSearchToolsTool, oneLineDescription, type SearchToolsOptions, type ToolAvailability } from './search-tools-tool.js';
export { catalogEntrySchema, isZodInputSchema } from './catalog-entry-schema.js';
export { validateJsonSchemaArguments } from './json-schema-arguments.js';
