// A stand-in for libFuzzer's main where libFuzzer is not used (gcc, or a build without -Dfuzz):
// runs the harness once over every file named on the command line or found in a directory named
// there, so the corpus and the saved regressions run in every build. Arguments starting with '-'
// (libFuzzer options) are ignored.
#define _POSIX_C_SOURCE 200809L

#include "fuzz_util.h"

#include <dirent.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    size_t capacity = 4096, size = 0;
    uint8_t *data = malloc(capacity);
    size_t got;
    while (data != NULL && (got = fread(data + size, 1, capacity - size, file)) > 0) {
        size += got;
        if (size == capacity) {
            uint8_t *grown = realloc(data, capacity *= 2);
            if (grown == NULL) free(data);
            data = grown;
        }
    }
    fclose(file);
    if (data == NULL) {
        fprintf(stderr, "out of memory reading %s\n", path);
        return 1;
    }
    fprintf(stderr, "running %s (%zu bytes)\n", path, size);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_directory(const char *path, int *runs)
{
    DIR *directory = opendir(path);
    if (directory == NULL) {
        fprintf(stderr, "cannot open the directory %s\n", path);
        return 1;
    }
    char **names = NULL;
    size_t count = 0, capacity = 0;
    int failures = 0;
    for (struct dirent *entry; (entry = readdir(directory)) != NULL;) {
        if (entry->d_name[0] == '.') continue;
        if (count == capacity) {
            char **grown = realloc(names, (capacity = capacity ? 2 * capacity : 64) * sizeof(char *));
            if (grown == NULL) break;
            names = grown;
        }
        size_t length = strlen(path) + strlen(entry->d_name) + 2;
        names[count] = malloc(length);
        if (names[count] == NULL) break;
        snprintf(names[count], length, "%s/%s", path, entry->d_name);
        ++count;
    }
    closedir(directory);
    qsort(names, count, sizeof(char *), by_name); // the same order on every machine
    for (size_t i = 0; i < count; ++i) {
        struct stat info;
        if (stat(names[i], &info) == 0 && S_ISREG(info.st_mode)) {
            failures += run_file(names[i]);
            ++*runs;
        }
        free(names[i]);
    }
    free(names);
    return failures;
}

int main(int argc, char **argv)
{
    int failures = 0, runs = 0;
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-') continue;
        struct stat info;
        if (stat(argv[i], &info) != 0) {
            fprintf(stderr, "no such file or directory: %s\n", argv[i]);
            ++failures;
        } else if (S_ISDIR(info.st_mode)) {
            failures += run_directory(argv[i], &runs);
        } else {
            failures += run_file(argv[i]);
            ++runs;
        }
    }
    printf("%d inputs ran%s\n", runs, failures ? ", some could not be read" : "");
    return failures != 0;
}
