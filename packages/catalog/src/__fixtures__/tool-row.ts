/**
 * One hand-written catalog tool: [name, description, parameters, tags].
 * Parameters are `|`-separated `name<type><!>:description` items; type is empty (string), `#` (integer),
 * `%` (number), `?` (boolean), `[]` (array of strings), `{}` (object) or `=a,b,c` (enum); `!` marks it required.
 */
export type ToolRow = [name: string, description: string, parameters: string, tags: string];
