export { toLangChainTools, toLangChainTool, hostSchema, type LangChainToolHost } from './to-langchain-tools.js';
