// The TSDoc @example of toResponsesTools (@toolhost/openai) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
// #region example
import OpenAI from 'openai';
import { answerResponsesCalls, toResponsesTools } from '@toolhost/openai';
import { createToolHost } from 'toolhost';

const client = new OpenAI();
const host = createToolHost({ workspace: '/abs/path/to/repo' });
let input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Fix the failing test.' }];
let previousResponseId: string | undefined;
for (let turn = 0; turn < 20; turn++) {
  const response = await client.responses.create({
    model: 'gpt-5',
    input,
    previous_response_id: previousResponseId,
    tools: toResponsesTools(host),
  });
  const outputs = await answerResponsesCalls(response.output, host);
  if (outputs.length === 0) break;
  host.nextSegment();
  // The server keeps the conversation so far, so the next request sends only the tool outputs.
  input = outputs;
  previousResponseId = response.id;
}
await host.close();
// #endregion example
