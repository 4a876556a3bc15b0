// json_source gives each value the line it starts on, even where strings hold brackets, quotes
// and newline escapes, containers are empty, lines end in \r\n, or the text starts with a BOM.
#include "json_source.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;

static void expect_line(const json_source *source, const cJSON *node, const char *what, uint32_t expected)
{
    uint32_t line = json_source_line(source, node);
    if (line != expected) {
        printf("FAIL: %s is on line %u, json_source says %u\n", what, expected, line);
        ++failures;
    }
}

static void test_tricky_document(void)
{
    const char *text = "\xEF\xBB\xBF{\r\n"
                       "  \"a{b\": \"x\\\"]}\\n[\",\r\n"
                       "  \"empty\": [], \"none\": {},\r\n"
                       "  \"list\": [1e-3,\r\n"
                       "     -2.5E+2, true,\r\n"
                       "     null, [\r\n"
                       "       {\"deep\": \"v\"}]],\r\n"
                       "  \"last\"\r\n"
                       "  :\r\n"
                       "  7\r\n"
                       "}\r\n";
    json_source source;
    uint32_t error_line, error_column;
    if (!json_source_parse(&source, text, strlen(text), &error_line, &error_column)) {
        printf("FAIL: the tricky document did not parse (line %u, column %u)\n", error_line, error_column);
        ++failures;
        return;
    }
    const cJSON *root = source.root, *list = cJSON_GetObjectItem(root, "list");
    expect_line(&source, root, "the root", 1);
    expect_line(&source, cJSON_GetObjectItem(root, "a{b"), "\"a{b\"", 2);
    expect_line(&source, cJSON_GetObjectItem(root, "none"), "\"none\"", 3);
    expect_line(&source, list, "\"list\"", 4);
    expect_line(&source, cJSON_GetArrayItem(list, 1), "list[1]", 5);
    expect_line(&source, cJSON_GetArrayItem(list, 2), "list[2]", 5);
    expect_line(&source, cJSON_GetArrayItem(list, 3), "list[3]", 6);
    expect_line(&source, cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetArrayItem(list, 4), 0), "deep"), "deep", 7);
    expect_line(&source, cJSON_GetObjectItem(root, "last"), "\"last\"'s value", 10);
    json_source_free(&source);
}

static void test_syntax_error_position(void)
{
    const char *text = "{\n  \"a\": [1, 2,\n  ]\n}";
    json_source source;
    uint32_t line, column;
    if (json_source_parse(&source, text, strlen(text), &line, &column) || line != 3) {
        printf("FAIL: the syntax error is on line 3, json_source says %u (column %u)\n", line, column);
        ++failures;
    }
    const char *trailing = "{}\n\n  x";
    if (json_source_parse(&source, trailing, strlen(trailing), &line, &column) || line != 3 || column != 3) {
        printf("FAIL: trailing text is at 3:3, json_source says %u:%u\n", line, column);
        ++failures;
    }
}

int main(void)
{
    test_tricky_document();
    test_syntax_error_position();
    if (failures == 0) printf("ok: json_source lines\n");
    return failures == 0 ? 0 : 1;
}
