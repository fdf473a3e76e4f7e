// A thin C layer over libpng whose only job is error handling: libpng reports
// errors by longjmp, which Swift cannot catch, so every call here sets its own
// jump target and turns a libpng error into a return code and a message.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FG_PNG_MESSAGE_SIZE 256

typedef struct {
    /// zlib level 0-9.
    int compression_level;
    /// A mask of PNG_FILTER_NONE/SUB/UP/AVG/PAETH values (see png.h).
    int filters;
    /// zlib strategy: Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE, ...
    int strategy;
    /// 0: tagged sRGB (an sRGB chunk). 1: Display P3, tagged with a cICP chunk (primaries
    /// 12, transfer 13, full range) and an iCCP chunk holding `icc_profile`.
    int display_p3;
    /// The ICC profile of a Display P3 file, and its length in bytes.
    const unsigned char *icc_profile;
    uint32_t icc_length;
} fg_png_write_options;

/// Writes `height` rows of `width` pixels with `channels` (3 = RGB, 4 = RGBA) of
/// `bit_depth` (8 or 16; 16-bit samples are read little-endian) to `path`, tagged sRGB
/// or Display P3 (see fg_png_write_options).
/// With `drop_alpha`, 4-channel input is written as RGB (the fourth sample is a filler).
/// Returns 0; or, with a message in `message`, the `errno` value of a failed system
/// call (such as ENOSPC), or -1 for any other failure.
int fg_png_write_file(const char *path, const void *pixels, uint32_t width, uint32_t height,
                      int channels, int bit_depth, int drop_alpha, fg_png_write_options options,
                      char message[FG_PNG_MESSAGE_SIZE]);

/// PNG bytes in memory, malloc'd; free with fg_png_data_free.
typedef struct {
    unsigned char *bytes;
    size_t count;
    /// Bytes allocated, at least `count`.
    size_t capacity;
} fg_png_data;

/// fg_png_write_file's encoding, into memory (through libpng's png_set_write_fn): the
/// same bytes a file would hold. Returns 0 with the PNG in `data`, or -1 with a message
/// and `data` empty.
int fg_png_write_memory(const void *pixels, uint32_t width, uint32_t height, int channels, int bit_depth,
                        int drop_alpha, fg_png_write_options options, fg_png_data *data,
                        char message[FG_PNG_MESSAGE_SIZE]);

/// Frees the bytes of `data` and empties it.
void fg_png_data_free(fg_png_data *data);

typedef struct {
    uint32_t width;
    uint32_t height;
    /// 3 (RGB) or 4 (RGBA) after expansion of grey, palette and tRNS.
    int channels;
    /// 8 or 16; 16-bit samples are returned in host byte order.
    int bit_depth;
    /// width * height * channels * bit_depth / 8 bytes; free with fg_png_free.
    void *pixels;
    /// The colour primaries a cICP chunk names (1 sRGB, 12 Display P3), or -1 without one.
    int cicp_primaries;
    /// Whether the file has an sRGB chunk.
    int has_srgb;
    /// The iCCP chunk's profile, decompressed, or NULL; freed by fg_png_free.
    unsigned char *icc_profile;
    uint32_t icc_length;
} fg_png_image;

/// Decodes the PNG that `file` holds, from its current position, into `image`; the
/// caller closes `file`. Returns 0, or -1 with a message.
int fg_png_read_stream(FILE *file, fg_png_image *image, char message[FG_PNG_MESSAGE_SIZE]);

void fg_png_free(fg_png_image *image);
