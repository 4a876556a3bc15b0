// Internal checks. MF_ASSERT states an invariant: something the library's own logic guarantees,
// never something a caller's input can break (public entry points check those and return an
// mf_status with a message). Preconditions open the hot functions, as Box3D's B3_ASSERT does.
//
// On wherever NDEBUG is not defined, as assert() is: debug builds, the sanitizer build and the
// fuzzers (-Db_ndebug=false), and any build with MF_ENABLE_ASSERT defined. Meson's release build
// defines NDEBUG (b_ndebug=if-release), and there the check compiles to nothing: the condition
// sits inside sizeof, unevaluated, so the hot paths pay nothing and names read only by checks
// still count as used.
#pragma once

#if !defined(NDEBUG) || defined(MF_ENABLE_ASSERT)

#include <stdio.h>
#include <stdlib.h>

#define MF_ASSERT_ENABLED 1

_Noreturn static inline void mf_assert_failed(const char *condition, const char *function, const char *file, int line)
{
    fprintf(stderr, "%s:%d: %s: manyfold internal check failed: %s\n", file, line, function, condition);
    abort();
}

#define MF_ASSERT(condition) ((condition) ? (void)0 : mf_assert_failed(#condition, __func__, __FILE__, __LINE__))

#else

#define MF_ASSERT_ENABLED 0
#define MF_ASSERT(condition) ((void)sizeof(!(condition)))

#endif

// A function the compiler must not inline: where a stage's outputs go through memory anyway, its
// own register allocation beats that of the caller it would swell (box_clip.h's clip_faces).
#if defined(__GNUC__)
#define MF_NOINLINE __attribute__((noinline))
#else
#define MF_NOINLINE
#endif

// A function the compiler must inline: where a call would return a block of registers through
// memory (support_cull.c's load_block, nine vectors).
#if defined(__GNUC__)
#define MF_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MF_ALWAYS_INLINE inline
#endif
