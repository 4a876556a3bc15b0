// A tiny assertion and test-runner kit: CHECK records a failure and goes on, a test is a named
// function, and the executable runs the test named on its command line (meson lists every name).
#pragma once

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

// `count` times MF_TEST_SCALE, at least 1: the sanitizer run checks fewer pairs.
static inline uint32_t test_scaled(uint32_t count)
{
    const char *text = getenv("MF_TEST_SCALE");
    double scale = text != NULL && text[0] != '\0' ? atof(text) : 1.0;
    return scale * count < 1.0 ? 1 : (uint32_t)(scale * count);
}

static void check_fail(const char *file, int line, const char *expression, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5), unused))
#endif
    ;

static void check_fail(const char *file, int line, const char *expression, const char *format, ...)
{
    ++check_failures;
    fprintf(stderr, "%s:%d: CHECK(%s) failed", file, line, expression);
    if (format != NULL && format[0] != '\0') {
        va_list args;
        va_start(args, format);
        fputs(": ", stderr);
        vfprintf(stderr, format, args);
        va_end(args);
    }
    fputc('\n', stderr);
}

// CHECK(condition) and CHECKF(condition, "format", ...) with details on failure.
#define CHECK(condition)                                                                                               \
    do {                                                                                                               \
        if (!(condition)) check_fail(__FILE__, __LINE__, #condition, "%s", "");                                        \
    } while (0)
#define CHECKF(condition, ...)                                                                                         \
    do {                                                                                                               \
        if (!(condition)) check_fail(__FILE__, __LINE__, #condition, __VA_ARGS__);                                     \
    } while (0)
// Equality of two integers (statuses, counts) with both values printed.
#define CHECK_EQ(actual, expected)                                                                                     \
    do {                                                                                                               \
        long long check_actual_ = (long long)(actual), check_expected_ = (long long)(expected);                        \
        if (check_actual_ != check_expected_)                                                                          \
            check_fail(__FILE__, __LINE__, #actual " == " #expected, "got %lld, expected %lld", check_actual_,         \
                       check_expected_);                                                                               \
    } while (0)
// |actual - expected| <= tolerance for floating-point values.
#define CHECK_NEAR(actual, expected, tolerance)                                                                        \
    do {                                                                                                               \
        double check_actual_ = (double)(actual), check_expected_ = (double)(expected);                                 \
        if (!(check_actual_ - check_expected_ <= (tolerance) && check_expected_ - check_actual_ <= (tolerance)))       \
            check_fail(__FILE__, __LINE__, #actual " ~ " #expected, "got %.9g, expected %.9g (tolerance %g)",          \
                       check_actual_, check_expected_, (double)(tolerance));                                           \
    } while (0)

typedef struct test_case {
    const char *name;
    void (*run)(void);
} test_case;

// clang-format 14 would split this braced initializer over four lines.
// clang-format off
#define TEST_CASE(function) {#function, function}
// clang-format on

// `exe NAME` runs one test; `exe` runs all; `exe --listed NAME...` checks that the names given (the
// ones meson registers) are exactly the tests in the executable, so none is silently skipped.
static inline int test_main(const test_case *tests, int count, int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--listed") == 0) {
        for (int i = 0; i < count; ++i) {
            int listed = 0;
            for (int k = 2; k < argc; ++k) listed |= strcmp(argv[k], tests[i].name) == 0;
            CHECKF(listed, "test %s is not registered in tests/meson.build", tests[i].name);
        }
        for (int k = 2; k < argc; ++k) {
            int known = 0;
            for (int i = 0; i < count; ++i) known |= strcmp(argv[k], tests[i].name) == 0;
            CHECKF(known, "meson registers %s but the executable has no such test", argv[k]);
        }
        return check_failures != 0;
    }
    int ran = 0;
    for (int i = 0; i < count; ++i) {
        if (argc >= 2 && strcmp(argv[1], tests[i].name) != 0) continue;
        int before = check_failures;
        tests[i].run();
        printf("%s %s\n", check_failures == before ? "pass" : "FAIL", tests[i].name);
        ++ran;
    }
    if (ran == 0) {
        fprintf(stderr, "no test named %s\n", argc >= 2 ? argv[1] : "(none)");
        return 1;
    }
    return check_failures != 0;
}
