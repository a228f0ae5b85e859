import * as z from 'zod';
import { budgetDataFields, maxOutputTokensSchema } from '@toolhost/core';

/** Input schema of apply_patch in its function form. */
export const applyPatchSchema = z.strictObject({
  input: z.string().min(1).describe('The entire patch, from "*** Begin Patch" to "*** End Patch".'),
  max_output_tokens: maxOutputTokensSchema,
});

/** Validated apply_patch arguments. */
export type ApplyPatchArgs = z.output<typeof applyPatchSchema>;

/** What an apply_patch result's `data` holds: the diff of each file it changed. */
export const applyPatchDataSchema = z.object({
  diff: z
    .array(
      z.object({
        path: z.string().optional(),
        operation: z.enum(['created', 'updated', 'deleted', 'moved']).optional(),
        content: z.string().optional(),
        additions: z.int().optional(),
        deletions: z.int().optional(),
        truncated: z.boolean().optional(),
        is_empty: z.boolean().optional(),
      }),
    )
    .optional(),
  ...budgetDataFields,
});

/** An apply_patch result's `data`. */
export type ApplyPatchData = z.output<typeof applyPatchDataSchema>;

/** The Lark grammar of the patch format, for providers that constrain freeform tool input. */
export const APPLY_PATCH_LARK_GRAMMAR = `start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
`;
