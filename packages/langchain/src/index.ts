export { toLangChainTools, toLangChainTool, hostSchema, type LangChainToolHost, type LangChainToolsOptions } from './to-langchain-tools.js';
export { toolHostMiddleware, type MiddlewareToolHost } from './tool-host-middleware.js';
