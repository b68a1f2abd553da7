// libyaml (Debian's libyaml-0-2; headers from libyaml-dev) for `cast-scan serve --web-config`,
// the web configuration file Prometheus' exporters share.
//
// Loaded with dlopen when a configuration is first read, not linked: only `serve` with that
// option uses it. The table is defined once, in this target's C file.
#include <yaml.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int (*parser_initialize)(yaml_parser_t *parser);
    void (*parser_delete)(yaml_parser_t *parser);
    void (*parser_set_input_string)(yaml_parser_t *parser, const unsigned char *input, size_t size);
    int (*parser_load)(yaml_parser_t *parser, yaml_document_t *document);
    void (*document_delete)(yaml_document_t *document);
    yaml_node_t *(*document_get_node)(yaml_document_t *document, int index);
    yaml_node_t *(*document_get_root_node)(yaml_document_t *document);
} cast_yaml_api;

// The one table of the process (defined in cyaml.c): a static in an inline function
// would be one per object file that uses it, and an optimiser that inlines across files
// would read a copy never filled.
extern cast_yaml_api cast_yaml_table_storage;

static inline cast_yaml_api *cast_yaml_table(void) { return &cast_yaml_table_storage; }

// Loads libyaml; false (with nothing loaded) when it is missing. Call once, before any other
// function here (YAMLDocument does, from a Swift static).
static inline bool cast_yaml_load_library(void) {
    void *library = dlopen("libyaml-0.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return false;
    cast_yaml_api api = {
        (int (*)(yaml_parser_t *))dlsym(library, "yaml_parser_initialize"),
        (void (*)(yaml_parser_t *))dlsym(library, "yaml_parser_delete"),
        (void (*)(yaml_parser_t *, const unsigned char *, size_t))dlsym(library, "yaml_parser_set_input_string"),
        (int (*)(yaml_parser_t *, yaml_document_t *))dlsym(library, "yaml_parser_load"),
        (void (*)(yaml_document_t *))dlsym(library, "yaml_document_delete"),
        (yaml_node_t *(*)(yaml_document_t *, int))dlsym(library, "yaml_document_get_node"),
        (yaml_node_t *(*)(yaml_document_t *))dlsym(library, "yaml_document_get_root_node"),
    };
    if (!api.parser_initialize || !api.parser_delete || !api.parser_set_input_string || !api.parser_load ||
        !api.document_delete || !api.document_get_node || !api.document_get_root_node) {
        dlclose(library);
        return false;
    }
    *cast_yaml_table() = api;
    return true;
}

// The first document of `length` bytes at `input` (a new document the caller frees with
// cast_yaml_free), or NULL with the parser's problem and its line (from 1) in `problem`.
static inline yaml_document_t *cast_yaml_parse(const unsigned char *input, size_t length, char *problem,
                                               size_t problem_size) {
    yaml_parser_t parser;
    if (!cast_yaml_table()->parser_initialize(&parser)) {
        snprintf(problem, problem_size, "cannot start the YAML parser");
        return NULL;
    }
    cast_yaml_table()->parser_set_input_string(&parser, input, length);
    yaml_document_t *document = malloc(sizeof *document);
    if (document == NULL) {
        cast_yaml_table()->parser_delete(&parser);
        snprintf(problem, problem_size, "out of memory");
        return NULL;
    }
    if (!cast_yaml_table()->parser_load(&parser, document)) {
        if (parser.context != NULL)
            snprintf(problem, problem_size, "line %zu: %s %s", parser.problem_mark.line + 1, parser.problem ? parser.problem : "invalid YAML",
                     parser.context);
        else
            snprintf(problem, problem_size, "line %zu: %s", parser.problem_mark.line + 1,
                     parser.problem ? parser.problem : "invalid YAML");
        free(document);
        cast_yaml_table()->parser_delete(&parser);
        return NULL;
    }
    cast_yaml_table()->parser_delete(&parser);
    return document;
}

static inline void cast_yaml_free(yaml_document_t *document) {
    cast_yaml_table()->document_delete(document);
    free(document);
}

// The root node's index (from 1), or 0 for an empty document.
static inline int cast_yaml_root(yaml_document_t *document) {
    yaml_node_t *root = cast_yaml_table()->document_get_root_node(document);
    return root == NULL ? 0 : (int)(root - document->nodes.start) + 1;
}

// Node `index` (from 1), or NULL.
static inline yaml_node_t *cast_yaml_node(yaml_document_t *document, int index) {
    return cast_yaml_table()->document_get_node(document, index);
}

// A node's kind: YAML_SCALAR_NODE, YAML_SEQUENCE_NODE, YAML_MAPPING_NODE.
static inline int cast_yaml_node_type(const yaml_node_t *node) { return (int)node->type; }
static inline size_t cast_yaml_node_line(const yaml_node_t *node) { return node->start_mark.line + 1; }
static inline const char *cast_yaml_node_tag(const yaml_node_t *node) { return (const char *)node->tag; }
static inline const unsigned char *cast_yaml_scalar(const yaml_node_t *node, size_t *length) {
    *length = node->data.scalar.length;
    return node->data.scalar.value;
}
// Whether a scalar was written plain (no quotes, no block style): only those resolve to null,
// bools and numbers.
static inline bool cast_yaml_scalar_is_plain(const yaml_node_t *node) {
    return node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}
static inline size_t cast_yaml_sequence_count(const yaml_node_t *node) {
    return (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
}
static inline int cast_yaml_sequence_item(const yaml_node_t *node, size_t index) {
    return node->data.sequence.items.start[index];
}
static inline size_t cast_yaml_mapping_count(const yaml_node_t *node) {
    return (size_t)(node->data.mapping.pairs.top - node->data.mapping.pairs.start);
}
static inline yaml_node_pair_t cast_yaml_mapping_pair(const yaml_node_t *node, size_t index) {
    return node->data.mapping.pairs.start[index];
}
