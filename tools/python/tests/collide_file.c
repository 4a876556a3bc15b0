// The Python tests' reference: reads a scene file that tests/test_against_c.py wrote, runs the
// library on it directly, and writes what it found, so the package's output can be compared byte
// for byte. Per step: mf_find_pairs (margin of the file), mf_collide of those pairs, and
// mf_collide_cached of the first step's pairs with one cache carried through the steps.
//
//   collide_file SCENE OUTPUT [REPEAT]
//
// With REPEAT, also prints the fastest of REPEAT mf_collide calls of the first step (seconds), for
// docs/python.md's measure of the package's overhead (tools/python/examples/overhead.py).
//
// Scene (little-endian): "MFSC", shape count; per shape its kind (0 box: 3 half extents, 1 hull: a
// point count and the points); body count, step count, the bodies' shapes, each step's transforms
// (x y z qx qy qz qw per body); margin (float), max_contacts, threads. Output per step: pair count
// and pairs, then manifold count, contact count and the raw mf_manifold and mf_contact records,
// uncached then cached.
#include "manyfold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static FILE *in, *out;

static void fail(const char *what)
{
    fprintf(stderr, "collide_file: %s\n", what);
    exit(1);
}

static uint32_t read_u32(void)
{
    uint32_t v;
    if (fread(&v, sizeof(v), 1, in) != 1) fail("the scene file ends early");
    return v;
}

static void read_floats(float *values, size_t count)
{
    if (fread(values, sizeof(float), count, in) != count) fail("the scene file ends early");
}

static void write_bytes(const void *data, size_t size)
{
    if (size > 0 && fwrite(data, 1, size, out) != size) fail("cannot write the output");
}

static void write_stream(const mf_stream *stream)
{
    write_bytes(&stream->manifold_count, sizeof(uint32_t));
    write_bytes(&stream->contact_count, sizeof(uint32_t));
    write_bytes(stream->manifolds, stream->manifold_count * sizeof(mf_manifold));
    write_bytes(stream->contacts, stream->contact_count * sizeof(mf_contact));
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) fail("usage: collide_file SCENE OUTPUT [REPEAT]");
    int repeat = argc == 4 ? atoi(argv[3]) : 0;
    in = fopen(argv[1], "rb");
    out = fopen(argv[2], "wb");
    if (in == NULL || out == NULL) fail("cannot open the files");
    char magic[4];
    if (fread(magic, 1, 4, in) != 4 || memcmp(magic, "MFSC", 4) != 0) fail("not a scene file");
    mf_bank *bank;
    if (mf_bank_create(&bank) != MF_OK) fail("no bank");
    uint32_t shape_count = read_u32();
    for (uint32_t s = 0; s < shape_count; ++s) {
        uint32_t kind = read_u32(), id;
        mf_status status;
        if (kind == 0) {
            float h[3];
            read_floats(h, 3);
            status = mf_bank_add_box(bank, (mf_vec3){h[0], h[1], h[2]}, &id);
        } else {
            uint32_t count = read_u32();
            mf_vec3 *points = malloc((count + 1) * sizeof(mf_vec3));
            read_floats((float *)points, 3 * (size_t)count);
            status = mf_bank_add_hull(bank, points, count, &id);
            free(points);
        }
        if (status != MF_OK || id != s) fail("a shape was refused");
    }
    uint32_t body_count = read_u32(), steps = read_u32();
    uint32_t *shapes = malloc((body_count + 1) * sizeof(uint32_t));
    mf_transform *transforms = malloc(((size_t)body_count * steps + 1) * sizeof(mf_transform));
    if (fread(shapes, sizeof(uint32_t), body_count, in) != body_count) fail("the scene file ends early");
    read_floats((float *)transforms, 7 * (size_t)body_count * steps);
    float margin;
    read_floats(&margin, 1);
    mf_config config = mf_config_default();
    config.margin = margin;
    config.max_contacts = read_u32();
    config.threads = read_u32();
    mf_context *context;
    if (mf_context_create(&config, &context) != MF_OK) fail("no context");

    mf_pair *first_pairs = NULL, *pairs = NULL;
    uint32_t first_count = 0;
    mf_pair_cache *cache = NULL;
    for (uint32_t step = 0; step < steps; ++step) {
        mf_bodies bodies = {.shape = shapes, .transform = transforms + (size_t)step * body_count, .count = body_count};
        uint32_t count = 0;
        mf_status status = mf_find_pairs(context, bank, &bodies, margin, NULL, 0, &count);
        if (status != MF_OK && status != MF_ERR_CAPACITY) fail(mf_context_message(context));
        free(pairs);
        pairs = malloc((count + 1) * sizeof(mf_pair));
        if (mf_find_pairs(context, bank, &bodies, margin, pairs, count, &count) != MF_OK)
            fail(mf_context_message(context));
        write_bytes(&count, sizeof(count));
        write_bytes(pairs, count * sizeof(mf_pair));
        if (step == 0) {
            first_count = count;
            first_pairs = malloc((count + 1) * sizeof(mf_pair));
            memcpy(first_pairs, pairs, count * sizeof(mf_pair));
            cache = calloc(count + 1, sizeof(mf_pair_cache));
        }
        uint32_t most = count > first_count ? count : first_count;
        mf_stream stream = {0};
        mf_stream_bound(most, config.max_contacts, &stream.manifold_capacity, &stream.contact_capacity);
        stream.manifolds = malloc((stream.manifold_capacity + 1) * sizeof(mf_manifold));
        stream.contacts = malloc((stream.contact_capacity + 1) * sizeof(mf_contact));
        if (mf_collide(context, bank, &bodies, pairs, count, &stream) != MF_OK) fail(mf_context_message(context));
        write_stream(&stream);
        double fastest = 1e30;
        for (int r = 0; step == 0 && r < repeat; ++r) {
            struct timespec start, end;
            clock_gettime(CLOCK_MONOTONIC, &start);
            if (mf_collide(context, bank, &bodies, pairs, count, &stream) != MF_OK) fail(mf_context_message(context));
            clock_gettime(CLOCK_MONOTONIC, &end);
            double seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
            fastest = seconds < fastest ? seconds : fastest;
        }
        if (step == 0 && repeat > 0) printf("%.9f\n", fastest);
        if (mf_collide_cached(context, bank, &bodies, first_pairs, first_count, cache, &stream) != MF_OK)
            fail(mf_context_message(context));
        write_stream(&stream);
        free(stream.manifolds);
        free(stream.contacts);
    }
    if (fclose(out) != 0) fail("cannot write the output");
    fclose(in);
    free(pairs);
    free(first_pairs);
    free(cache);
    free(shapes);
    free(transforms);
    mf_context_destroy(context);
    mf_bank_destroy(bank);
    return 0;
}
