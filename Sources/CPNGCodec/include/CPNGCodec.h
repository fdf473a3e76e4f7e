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

/// Writes `height` rows of `width` pixels with `channels` (1 = grey, 3 = RGB, 4 = RGBA) of
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

/// Asked before each read of the file's bytes: nonzero stops the decode.
typedef int (*fg_png_should_stop)(void *context);

/// What fg_png_read_rows returns when `should_stop` stopped it.
#define FG_PNG_STOPPED -3

/// A PNG being decoded: its header read, its rows not yet.
typedef struct fg_png_reader fg_png_reader;

typedef struct {
    uint32_t width;
    uint32_t height;
    /// The samples per pixel the rows hold: 3 (RGB) or 4 (RGBA).
    int channels;
    /// 8 or 16; 16-bit samples are returned little-endian.
    int bit_depth;
    /// 1 when the PNG has an alpha channel or a transparent colour (tRNS), else 0.
    int has_alpha;
    /// The bytes of one decoded row: width * channels * bit_depth / 8.
    size_t row_bytes;
    /// The colour primaries a cICP chunk names (1 sRGB, 12 Display P3), or -1 without one.
    int cicp_primaries;
    /// Whether the file has an sRGB chunk.
    int has_srgb;
    /// The iCCP chunk's profile, decompressed, or NULL; held by the reader until
    /// fg_png_close.
    const unsigned char *icc_profile;
    uint32_t icc_length;
} fg_png_header;

/// Reads the header of the PNG that `file` holds, from its current position, for
/// decoding as RGBA at its own depth: grey and palette images are expanded to RGB, and
/// an opaque alpha (0xFF or 0xFFFF) is filled in where the PNG has none. Ancillary chunks
/// (but tRNS and the colour tags cICP, sRGB and iCCP) are skipped unread. `should_stop`
/// (may be NULL) is asked with `stop_context` before each read of the file. Refuses what is not a PNG, a damaged or truncated header,
/// or more than 64 Mpixels. Returns the reader, to be closed with fg_png_close before
/// `file` is, or NULL with a message.
fg_png_reader *fg_png_open_rgba(FILE *file, fg_png_should_stop should_stop, void *stop_context,
                                fg_png_header *header, char message[FG_PNG_MESSAGE_SIZE]);

/// Decodes the rows into `pixels`, which holds `height * row_bytes` bytes of the
/// reader's header, once. Reading ends with the last row: the rest of the compressed
/// stream and the chunks after it are never read or inflated, so the work is bounded by
/// the pixels and the bytes up to them. Returns 0; -1 with a message; or FG_PNG_STOPPED
/// (the rows are then partly written).
int fg_png_read_rows(fg_png_reader *reader, void *pixels, char message[FG_PNG_MESSAGE_SIZE]);

/// Frees a reader; NULL is allowed.
void fg_png_close(fg_png_reader *reader);

