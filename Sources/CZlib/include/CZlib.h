// zlib (Debian's zlib1g; headers from zlib1g-dev) for `cast-scan serve`'s gzip answers.
//
// Loaded with dlopen when a server first compresses, not linked, as libmicrohttpd is: only
// `serve` uses it. The table is defined once, in this target's C file.
#include <zlib.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct {
    int (*deflate_init2)(z_streamp stream, int level, int method, int window_bits, int memory_level, int strategy,
                         const char *version, int stream_size);
    int (*deflate)(z_streamp stream, int flush);
    int (*deflate_end)(z_streamp stream);
    unsigned long (*deflate_bound)(z_streamp stream, unsigned long source_length);
    unsigned long (*crc32)(unsigned long crc, const unsigned char *bytes, unsigned int length);
    unsigned long (*crc32_combine)(unsigned long first, unsigned long second, long second_length);
} cast_zlib_api;

// The one table of the process (defined in czlib.c): a static in an inline function
// would be one per object file that uses it, and an optimiser that inlines across files
// would read a copy never filled.
extern cast_zlib_api cast_zlib_table_storage;

static inline cast_zlib_api *cast_zlib_table(void) { return &cast_zlib_table_storage; }

// Loads zlib; false (with nothing loaded) when it is missing. Call once, before any other
// function here (Deflate does, from a Swift static, which runs it once, thread-safely).
static inline bool cast_zlib_load(void) {
    void *library = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return false;
    cast_zlib_api api = {
        (int (*)(z_streamp, int, int, int, int, int, const char *, int))dlsym(library, "deflateInit2_"),
        (int (*)(z_streamp, int))dlsym(library, "deflate"),
        (int (*)(z_streamp))dlsym(library, "deflateEnd"),
        (unsigned long (*)(z_streamp, unsigned long))dlsym(library, "deflateBound"),
        (unsigned long (*)(unsigned long, const unsigned char *, unsigned int))dlsym(library, "crc32"),
        (unsigned long (*)(unsigned long, unsigned long, long))dlsym(library, "crc32_combine"),
    };
    if (!api.deflate_init2 || !api.deflate || !api.deflate_end || !api.deflate_bound || !api.crc32 ||
        !api.crc32_combine) {
        dlclose(library);
        return false;
    }
    *cast_zlib_table() = api;
    return true;
}

// The most bytes cast_zlib_deflate writes for `length` bytes of input.
static inline size_t cast_zlib_bound(size_t length) {
    // deflateBound's figure for a raw stream, and the empty stored block a sync flush adds.
    return (size_t)length + (length >> 12) + (length >> 14) + (length >> 25) + 13 + 6 + 16;
}

// Raw deflate data (no zlib or gzip wrapper) for `length` bytes at `input`, into `output`
// (room for `capacity` bytes; cast_zlib_bound(length) is enough), ended by a sync flush (more
// data from another stream may follow) or, when `final`, by the last block. 1 and the length
// written in *written on success, 0 otherwise.
static inline int cast_zlib_deflate(const unsigned char *input, size_t length, int final, int level,
                                    unsigned char *output, size_t capacity, size_t *written) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (cast_zlib_table()->deflate_init2(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                                         (int)sizeof stream) != Z_OK)
        return 0;
    int done = 1;
    size_t offset = 0;
    stream.next_out = output;
    stream.avail_out = capacity > 0xFFFFFFFFu ? 0xFFFFFFFFu : (unsigned int)capacity;
    // zlib counts in unsigned int: the input goes in slices.
    do {
        size_t slice = length - offset > 0x40000000u ? 0x40000000u : length - offset;
        stream.next_in = (unsigned char *)input + offset;
        stream.avail_in = (unsigned int)slice;
        offset += slice;
        int flush = offset < length ? Z_NO_FLUSH : (final ? Z_FINISH : Z_SYNC_FLUSH);
        int status = cast_zlib_table()->deflate(&stream, flush);
        if (flush == Z_FINISH ? status != Z_STREAM_END : status != Z_OK || stream.avail_in != 0) {
            done = 0;
            break;
        }
    } while (offset < length);
    *written = (size_t)stream.total_out;
    cast_zlib_table()->deflate_end(&stream);
    return done;
}

// The CRC-32 of `length` bytes at `bytes`, continuing `crc` (0 to start).
static inline unsigned long cast_zlib_crc32(unsigned long crc, const unsigned char *bytes, size_t length) {
    while (length > 0) {
        unsigned int slice = length > 0x40000000u ? 0x40000000u : (unsigned int)length;
        crc = cast_zlib_table()->crc32(crc, bytes, slice);
        bytes += slice;
        length -= slice;
    }
    return crc;
}

// The CRC-32 of two pieces joined, from theirs and the second's length.
static inline unsigned long cast_zlib_crc32_combine(unsigned long first, unsigned long second, long second_length) {
    return cast_zlib_table()->crc32_combine(first, second, second_length);
}
