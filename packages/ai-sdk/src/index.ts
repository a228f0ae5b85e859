export {
  toAiSdkTools,
  toAiSdkTool,
  createAiSdkTools,
  toModelOutput,
  type AiSdkTools,
  type AiSdkToolHost,
  type AiSdkToolSet,
} from './to-ai-sdk-tools.js';
export { toCatalogEmbedder, type AiSdkEmbedderOptions } from './ai-sdk-embedder.js';
