/* json_valid SCHEMA.json < DOCUMENT: checks a --format json document
 * against its schema in doc/schema (the JSON Schema keywords those files
 * use: type, enum, required, properties, additionalProperties false,
 * items, $ref to #/$defs). Prints each violation with its path; exit 1
 * when there is one, 2 when a file cannot be read. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static int violations;

static void fail(const char *path, const char *what)
{
    printf("%s: %s\n", path[0] ? path : "(document)", what);
    violations++;
}

static int has_type(const json_t *value, const char *type)
{
    if (strcmp(type, "object") == 0) return json_is_object(value);
    if (strcmp(type, "array") == 0) return json_is_array(value);
    if (strcmp(type, "string") == 0) return json_is_string(value);
    if (strcmp(type, "integer") == 0) return json_is_integer(value);
    if (strcmp(type, "number") == 0) return json_is_number(value);
    if (strcmp(type, "boolean") == 0) return json_is_boolean(value);
    if (strcmp(type, "null") == 0) return json_is_null(value);
    return 0;
}

static int type_matches(const json_t *value, const json_t *type)
{
    if (json_is_string(type))
        return has_type(value, json_string_value(type));
    size_t i;
    const json_t *t;
    json_array_foreach(type, i, t)
        if (has_type(value, json_string_value(t)))
            return 1;
    return 0;
}

static void check(const json_t *root, const json_t *schema, const json_t *value,
                  const char *path);

static void check_object(const json_t *root, const json_t *schema, const json_t *value,
                         const char *path)
{
    char sub[1024];
    size_t i;
    const json_t *name;
    json_array_foreach(json_object_get(schema, "required"), i, name)
        if (!json_object_get(value, json_string_value(name))) {
            snprintf(sub, sizeof sub, "missing member '%s'", json_string_value(name));
            fail(path, sub);
        }
    const json_t *props = json_object_get(schema, "properties");
    const char *key;
    const json_t *member;
    json_object_foreach((json_t *)value, key, member) {
        snprintf(sub, sizeof sub, "%s.%s", path, key);
        const json_t *p = json_object_get(props, key);
        if (p)
            check(root, p, member, sub);
        else if (json_is_false(json_object_get(schema, "additionalProperties")))
            fail(sub, "not in the schema");
    }
}

static void check(const json_t *root, const json_t *schema, const json_t *value,
                  const char *path)
{
    const json_t *ref = json_object_get(schema, "$ref");
    if (ref) {
        const char *name = json_string_value(ref) + strlen("#/$defs/");
        schema = json_object_get(json_object_get(root, "$defs"), name);
    }
    const json_t *type = json_object_get(schema, "type");
    if (type && !type_matches(value, type)) {
        fail(path, "wrong type");
        return;
    }
    const json_t *choices = json_object_get(schema, "enum");
    if (choices) {
        size_t i;
        const json_t *c;
        int found = 0;
        json_array_foreach(choices, i, c)
            found |= json_equal((json_t *)c, (json_t *)value);
        if (!found)
            fail(path, "not one of the enum values");
    }
    if (json_is_object(value))
        check_object(root, schema, value, path);
    const json_t *items = json_object_get(schema, "items");
    if (json_is_array(value) && items) {
        size_t i;
        const json_t *item;
        char sub[1024];
        json_array_foreach(value, i, item) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            check(root, items, item, sub);
        }
    }
}

int main(int argc, char **argv)
{
    json_error_t error;
    json_t *schema = argc == 2 ? json_load_file(argv[1], 0, &error) : NULL;
    json_t *doc = schema ? json_loadf(stdin, 0, &error) : NULL;
    if (!doc) {
        printf("%s:%d: %s\n", error.source, error.line, error.text);
        return 2;
    }
    check(schema, schema, doc, "");
    json_decref(doc);
    json_decref(schema);
    return violations ? 1 : 0;
}
