/** Which syntax nodes of one grammar are identifiers and which of them name a declaration. */
export interface SyntaxSpec {
  /** Node types that count as identifiers. */
  readonly identifiers: ReadonlySet<string>;
  /** Node types that are identifiers only directly under one of the listed parent types (e.g. Bash `word`). */
  readonly contextualIdentifiers?: Readonly<Record<string, readonly string[]>>;
  /** Declaration node type → the fields that hold its name. */
  readonly declarations: Readonly<Record<string, DeclarationRule>>;
  /** Node types a declaration name may be nested in (patterns, declarators) → the fields passed through, or `*` for any child. */
  readonly wrappers: Readonly<Record<string, readonly string[] | '*'>>;
}

/** Where a declaration keeps its name. */
export interface DeclarationRule {
  readonly fields: readonly string[];
  /** The name counts only when the node also has a `body` (e.g. `struct S { … }`, not `struct S x;`). */
  readonly needsBody?: boolean;
}

function rules(fields: readonly string[], types: readonly string[], needsBody = false): Record<string, DeclarationRule> {
  const out: Record<string, DeclarationRule> = {};
  for (const type of types) out[type] = needsBody ? { fields, needsBody } : { fields };
  return out;
}

const JAVASCRIPT_FAMILY: SyntaxSpec = {
  identifiers: new Set([
    'identifier',
    'type_identifier',
    'property_identifier',
    'shorthand_property_identifier',
    'shorthand_property_identifier_pattern',
    'private_property_identifier',
    'statement_identifier',
  ]),
  declarations: {
    ...rules(
      ['name'],
      [
        'function_declaration',
        'generator_function_declaration',
        'function_expression',
        'generator_function',
        'class_declaration',
        'class',
        'abstract_class_declaration',
        'interface_declaration',
        'type_alias_declaration',
        'enum_declaration',
        'enum_body',
        'enum_assignment',
        'method_definition',
        'method_signature',
        'abstract_method_signature',
        'function_signature',
        'public_field_definition',
        'property_signature',
        'variable_declarator',
        'internal_module',
        'module',
      ],
    ),
    field_definition: { fields: ['property'] },
  },
  wrappers: {
    object_pattern: '*',
    array_pattern: '*',
    rest_pattern: '*',
    pair_pattern: ['value'],
    assignment_pattern: ['left'],
    object_assignment_pattern: ['left'],
  },
};

const PYTHON: SyntaxSpec = {
  identifiers: new Set(['identifier']),
  declarations: {
    ...rules(['name'], ['function_definition', 'class_definition']),
    ...rules(['left'], ['assignment', 'type_alias_statement']),
  },
  wrappers: { pattern_list: '*', tuple_pattern: '*', list_pattern: '*', type: '*' },
};

const RUST: SyntaxSpec = {
  identifiers: new Set(['identifier', 'type_identifier', 'field_identifier', 'shorthand_field_identifier']),
  declarations: {
    ...rules(
      ['name'],
      [
        'function_item',
        'function_signature_item',
        'struct_item',
        'enum_item',
        'union_item',
        'trait_item',
        'type_item',
        'associated_type',
        'const_item',
        'static_item',
        'mod_item',
        'macro_definition',
        'field_declaration',
        'enum_variant',
      ],
    ),
    let_declaration: { fields: ['pattern'] },
  },
  wrappers: { tuple_pattern: '*', ref_pattern: '*', mut_pattern: '*' },
};

const GO: SyntaxSpec = {
  identifiers: new Set(['identifier', 'type_identifier', 'field_identifier', 'package_identifier']),
  declarations: {
    ...rules(
      ['name'],
      [
        'function_declaration',
        'method_declaration',
        'type_spec',
        'type_alias',
        'const_spec',
        'var_spec',
        'field_declaration',
        'method_elem',
        'method_spec',
      ],
    ),
    short_var_declaration: { fields: ['left'] },
  },
  wrappers: { expression_list: '*' },
};

const JAVA: SyntaxSpec = {
  identifiers: new Set(['identifier', 'type_identifier']),
  declarations: rules(
    ['name'],
    [
      'class_declaration',
      'interface_declaration',
      'enum_declaration',
      'record_declaration',
      'annotation_type_declaration',
      'annotation_type_element_declaration',
      'method_declaration',
      'constructor_declaration',
      'enum_constant',
      'variable_declarator',
    ],
  ),
  wrappers: {},
};

const C_DECLARATIONS: Record<string, DeclarationRule> = {
  ...rules(['declarator'], ['function_definition', 'declaration', 'field_declaration', 'type_definition']),
  ...rules(['name'], ['struct_specifier', 'union_specifier', 'enum_specifier'], true),
  ...rules(['name'], ['enumerator', 'preproc_def', 'preproc_function_def']),
};

const C_WRAPPERS: Record<string, readonly string[] | '*'> = {
  pointer_declarator: ['declarator'],
  function_declarator: ['declarator'],
  array_declarator: ['declarator'],
  init_declarator: ['declarator'],
  parenthesized_declarator: '*',
  attributed_declarator: '*',
};

const C: SyntaxSpec = {
  identifiers: new Set(['identifier', 'type_identifier', 'field_identifier', 'statement_identifier']),
  declarations: C_DECLARATIONS,
  wrappers: C_WRAPPERS,
};

const CPP: SyntaxSpec = {
  identifiers: new Set(['identifier', 'type_identifier', 'field_identifier', 'statement_identifier', 'namespace_identifier']),
  declarations: {
    ...C_DECLARATIONS,
    ...rules(['name'], ['class_specifier'], true),
    ...rules(['name'], ['namespace_definition', 'alias_declaration', 'concept_definition']),
  },
  wrappers: { ...C_WRAPPERS, reference_declarator: '*', qualified_identifier: ['name'], destructor_name: '*' },
};

const BASH: SyntaxSpec = {
  identifiers: new Set(['variable_name']),
  contextualIdentifiers: { word: ['command_name', 'function_definition'] },
  declarations: { function_definition: { fields: ['name'] }, variable_assignment: { fields: ['name'] } },
  wrappers: {},
};

/** Syntax specs by grammar id. */
export const SYNTAX_SPECS: Readonly<Record<string, SyntaxSpec>> = {
  typescript: JAVASCRIPT_FAMILY,
  tsx: JAVASCRIPT_FAMILY,
  javascript: JAVASCRIPT_FAMILY,
  python: PYTHON,
  rust: RUST,
  go: GO,
  java: JAVA,
  c: C,
  cpp: CPP,
  bash: BASH,
};
