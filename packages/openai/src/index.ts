export { toResponsesTools, type ResponsesToolsOptions } from './responses-tools.js';
export { answerResponsesCalls, type AnswerResponsesOptions } from './answer-responses-calls.js';
export { toStrictJsonSchema, stripNulls, allowsNull } from './strict-json-schema.js';
export type {
  ResponsesTool,
  ResponsesFunctionTool,
  ResponsesCustomTool,
  ResponsesFunctionCall,
  ResponsesCustomToolCall,
  ResponsesFunctionCallOutput,
  ResponsesCustomToolCallOutput,
  ResponsesCallOutput,
} from './responses-types.js';
