#include "CPNGCodec.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    jmp_buf jump;
    char *message;
    /* errno when libpng gave up: its own "Write Error" does not say why. */
    int system_error;
    /* Whether the message is ours, already a sentence, rather than libpng's (set
       between setjmp and longjmp, hence volatile). */
    volatile int ours;
} error_context;

/* Stops reading or writing with `text`, which is ours: libpng's own messages get context. */
static void fail(png_structp png, const char *text) {
    ((error_context *)png_get_error_ptr(png))->ours = 1;
    png_error(png, text);
}

static void on_error(png_structp png, png_const_charp text) {
    error_context *context = (error_context *)png_get_error_ptr(png);
    context->system_error = errno;
    snprintf(context->message, FG_PNG_MESSAGE_SIZE, "%s", text);
    longjmp(context->jump, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

/* The system's reason for `error` into `message`; returns `error`. */
static int system_failure(char message[FG_PNG_MESSAGE_SIZE], int error) {
    snprintf(message, FG_PNG_MESSAGE_SIZE, "%s", strerror(error));
    return error != 0 ? error : -1;
}

/* Row pointers into `pixels`, to be freed by the caller; stops libpng when out of memory. */
static png_bytep *row_pointers(png_structp png, const void *pixels, uint32_t width, uint32_t height, int channels,
                               int bit_depth) {
    size_t row_bytes = (size_t)width * (size_t)channels * (size_t)(bit_depth / 8);
    png_bytep *rows = malloc(sizeof(png_bytep) * height);
    if (!rows) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)pixels + (size_t)y * row_bytes;
    return rows;
}

/* The colour tags: sRGB's chunk, or for Display P3 a cICP chunk (primaries 12 =
   SMPTE EG 432-1, transfer 13 = sRGB's curve, matrix 0 = RGB, full range), which this
   libpng (before 1.6.45) has no setter for and so writes as an unknown chunk before
   PLTE and IDAT, and an iCCP chunk with the project's profile for readers without cICP. */
static void set_colour_tags(png_structp png, png_infop info, fg_png_write_options options) {
    if (!options.display_p3) {
        png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
        return;
    }
    static png_byte cicp_data[4] = {12, 13, 0, 1};
    png_unknown_chunk cicp;
    memset(&cicp, 0, sizeof cicp);
    memcpy(cicp.name, "cICP", 5);
    cicp.data = cicp_data;
    cicp.size = sizeof cicp_data;
    cicp.location = PNG_HAVE_IHDR;
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_ALWAYS, (png_const_bytep) "cICP", 1);
    png_set_unknown_chunks(png, info, &cicp, 1);
    png_set_iCCP(png, info, "Display P3", PNG_COMPRESSION_TYPE_BASE, options.icc_profile, options.icc_length);
}

/* Everything after the output is set up: the header, the colour tags, the encoder
   settings and the rows. Files and memory share it, so both hold the same bytes. */
static void write_image(png_structp png, png_infop info, png_bytep *rows, uint32_t width, uint32_t height,
                        int channels, int bit_depth, int drop_alpha, fg_png_write_options options) {
    int color_type = channels == 1                  ? PNG_COLOR_TYPE_GRAY
                     : channels == 4 && !drop_alpha ? PNG_COLOR_TYPE_RGB_ALPHA
                                                    : PNG_COLOR_TYPE_RGB;
    png_set_IHDR(png, info, width, height, bit_depth, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    set_colour_tags(png, info, options);
    png_set_compression_level(png, options.compression_level);
    png_set_compression_strategy(png, options.strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, options.filters);
    png_write_info(png, info);
    if (channels == 4 && drop_alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);
    if (bit_depth == 16) png_set_swap(png);
    png_write_image(png, rows);
    png_write_end(png, info);
}

/* Whether `channels` is 1 (grey), 3 or 4; otherwise says so in `message`. */
static int usable_channels(int channels, char message[FG_PNG_MESSAGE_SIZE]) {
    if (channels == 1 || channels == 3 || channels == 4) return 1;
    snprintf(message, FG_PNG_MESSAGE_SIZE, "unsupported channel count %d", channels);
    return 0;
}

/* A libpng writer that reports to `context`: 0, or -1 with "out of memory" and nothing
   left allocated. */
static int create_writer(error_context *context, png_structp *png, png_infop *info) {
    *png = png_create_write_struct(PNG_LIBPNG_VER_STRING, context, on_error, on_warning);
    *info = *png ? png_create_info_struct(*png) : NULL;
    if (*png && *info) return 0;
    snprintf(context->message, FG_PNG_MESSAGE_SIZE, "out of memory");
    png_destroy_write_struct(png, NULL);
    return -1;
}

int fg_png_write_file(const char *path, const void *pixels, uint32_t width, uint32_t height,
                      int channels, int bit_depth, int drop_alpha, fg_png_write_options options,
                      char message[FG_PNG_MESSAGE_SIZE]) {
    message[0] = 0;
    if (!usable_channels(channels, message)) return -1;
    FILE *file = fopen(path, "wb");
    if (!file) return system_failure(message, errno);
    error_context context = {.message = message};
    png_structp png;
    png_infop info;
    png_bytep *volatile rows = NULL;
    if (create_writer(&context, &png, &info) != 0) {
        fclose(file);
        return -1;
    }
    if (setjmp(context.jump)) {
        int failure = ferror(file) && context.system_error != 0 ? system_failure(message, context.system_error) : -1;
        free(rows);
        png_destroy_write_struct(&png, &info);
        fclose(file);
        return failure;
    }
    rows = row_pointers(png, pixels, width, height, channels, bit_depth);
    png_init_io(png, file);
    write_image(png, info, rows, width, height, channels, bit_depth, drop_alpha, options);

    free(rows);
    png_destroy_write_struct(&png, &info);
    if (fflush(file) != 0 || ferror(file)) {
        int failure = system_failure(message, errno);
        fclose(file);
        return failure;
    }
    if (fclose(file) != 0) return system_failure(message, errno);
    return 0;
}

/* libpng's write callback for memory: appends to the fg_png_data, doubling its capacity. */
static void append_to_data(png_structp png, png_bytep bytes, png_size_t count) {
    fg_png_data *data = (fg_png_data *)png_get_io_ptr(png);
    if (count > SIZE_MAX - data->count) png_error(png, "out of memory");
    if (data->count + count > data->capacity) {
        size_t capacity = data->capacity ? data->capacity : 1 << 16;
        while (capacity < data->count + count) capacity = capacity > SIZE_MAX / 2 ? SIZE_MAX : capacity * 2;
        unsigned char *grown = realloc(data->bytes, capacity);
        if (!grown) png_error(png, "out of memory");
        data->bytes = grown;
        data->capacity = capacity;
    }
    memcpy(data->bytes + data->count, bytes, count);
    data->count += count;
}

/* Memory needs no flushing. */
static void flush_nothing(png_structp png) { (void)png; }

int fg_png_write_memory(const void *pixels, uint32_t width, uint32_t height, int channels, int bit_depth,
                        int drop_alpha, fg_png_write_options options, fg_png_data *data,
                        char message[FG_PNG_MESSAGE_SIZE]) {
    message[0] = 0;
    memset(data, 0, sizeof *data);
    if (!usable_channels(channels, message)) return -1;
    error_context context = {.message = message};
    png_structp png;
    png_infop info;
    png_bytep *volatile rows = NULL;
    if (create_writer(&context, &png, &info) != 0) return -1;
    if (setjmp(context.jump)) {
        free(rows);
        png_destroy_write_struct(&png, &info);
        fg_png_data_free(data);
        return -1;
    }
    rows = row_pointers(png, pixels, width, height, channels, bit_depth);
    png_set_write_fn(png, data, append_to_data, flush_nothing);
    write_image(png, info, rows, width, height, channels, bit_depth, drop_alpha, options);
    free(rows);
    png_destroy_write_struct(&png, &info);
    return 0;
}

void fg_png_data_free(fg_png_data *data) {
    free(data->bytes);
    memset(data, 0, sizeof *data);
}

/* What the file says of its colours: a cICP chunk's primaries, an sRGB chunk, an iCCP
   profile (left in libpng's info, which the reader holds until it is closed). */
static void read_colour_tags(png_structp png, png_infop info, fg_png_header *header) {
    header->cicp_primaries = -1;
    png_unknown_chunkp chunks = NULL;
    int count = png_get_unknown_chunks(png, info, &chunks);
    for (int index = 0; index < count; index++) {
        if (memcmp(chunks[index].name, "cICP", 4) == 0 && chunks[index].size == 4)
            header->cicp_primaries = chunks[index].data[0];
    }
    int intent;
    header->has_srgb = png_get_sRGB(png, info, &intent) != 0;
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 length;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &length) && length > 0 && length < (1u << 24)) {
        header->icc_profile = profile;
        header->icc_length = length;
    }
}

/* A PNG being decoded: libpng's state, where its compressed bytes come from, and when it
   stops taking them. */
struct fg_png_reader {
    error_context context;
    png_structp png;
    png_infop info;
    FILE *file;
    fg_png_should_stop should_stop;
    void *stop_context;
    int passes;
    uint32_t height;
    /* Whether the rows are being read: once the last is delivered, libpng asks for bytes
       only to finish the zlib stream, which a crafted file makes gigabytes long. */
    int reading_rows;
    /* Set just before stopping libpng by png_error (between setjmp and longjmp). */
    volatile int rows_complete;
    volatile int stopped;
};

/* Whether libpng has finished the last row of the last pass (png_read_finish_row moves
   the pass to 7, or the row number to the height, before it reads on). */
static int rows_are_complete(png_structp png, const fg_png_reader *reader) {
    if (!reader->reading_rows) return 0;
    if (reader->passes > 1) return png_get_current_pass_number(png) >= 7;
    return png_get_current_row_number(png) >= reader->height;
}

/* libpng's read callback: the file's bytes, until the rows are complete or the caller
   asks to stop. */
static void read_bytes(png_structp png, png_bytep data, size_t length) {
    fg_png_reader *reader = (fg_png_reader *)png_get_io_ptr(png);
    if (rows_are_complete(png, reader)) {
        reader->rows_complete = 1;
        png_error(png, "rows complete");
    }
    if (reader->should_stop && reader->should_stop(reader->stop_context)) {
        reader->stopped = 1;
        fail(png, "the decode was stopped");
    }
    if (fread(data, 1, length, reader->file) != length) png_error(png, "Read Error");
}

/* Chunks the decode does not use, skipped unread rather than inflated: text and
   palettes a file can pack with compressed data. The critical chunks,
   tRNS (which png_set_expand uses) and the colour tags (sRGB, iCCP, cICP) are kept. */
static void ignore_unused_chunks(png_structp png) {
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_AS_DEFAULT, (png_const_bytep) "tRNS\0sRGB\0iCCP\0", 3);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_ALWAYS, (png_const_bytep) "cICP", 1);
}

/* Turns the error that stopped libpng into the message the caller sees. */
static void explain_read_error(error_context *context) {
    char *message = context->message;
    /* libpng's reader says only "Read Error" when the data runs out. */
    if (strcmp(message, "Read Error") == 0) {
        snprintf(message, FG_PNG_MESSAGE_SIZE, "the file ends early: it is truncated or damaged");
    } else if (!context->ours) {
        char detail[FG_PNG_MESSAGE_SIZE];
        snprintf(detail, sizeof detail, "%s", message);
        snprintf(message, FG_PNG_MESSAGE_SIZE, "the PNG is damaged, or over 65536 pixels a side (libpng: %s)", detail);
    }
}

/* Frees a reader and everything libpng holds for it. */
static void destroy_reader(fg_png_reader *reader) {
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader);
}

/* Reads the header and sets up the transforms: grey, palette and tRNS expanded to RGB(A),
   16-bit samples in host order, and an opaque alpha filled in where the PNG has none.
   Stops libpng on a layout or size it does not take. */
static void read_header(fg_png_reader *reader, fg_png_header *header) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    png_set_read_fn(png, reader, read_bytes);
    png_set_sig_bytes(png, 8);
    png_set_user_limits(png, 1u << 16, 1u << 16);
    ignore_unused_chunks(png);
    png_read_info(png, info);
    read_colour_tags(png, info, header);
    int has_alpha = (png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    png_set_expand(png);
    png_set_gray_to_rgb(png);
    if (png_get_bit_depth(png, info) == 16) png_set_swap(png);
    if (!has_alpha) png_set_filler(png, 0xFFFF, PNG_FILLER_AFTER);
    reader->passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);

    uint32_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    int channels = png_get_channels(png, info), bit_depth = png_get_bit_depth(png, info);
    if (channels != 4 || (bit_depth != 8 && bit_depth != 16)) fail(png, "unsupported pixel layout");
    /* 64 Mpixels, as the largest frame: up to 512 MiB decoded. */
    if ((uint64_t)width * height > ((uint64_t)1 << 26)) {
        char text[FG_PNG_MESSAGE_SIZE];
        snprintf(text, sizeof text, "it is %ux%u, over 67 million pixels; scale it down first", width, height);
        fail(png, text);
    }
    reader->height = height;
    header->width = width;
    header->height = height;
    header->channels = channels;
    header->bit_depth = bit_depth;
    header->has_alpha = has_alpha;
    header->row_bytes = png_get_rowbytes(png, info);
}

fg_png_reader *fg_png_open_rgba(FILE *file, fg_png_should_stop should_stop, void *stop_context,
                                fg_png_header *header, char message[FG_PNG_MESSAGE_SIZE]) {
    message[0] = 0;
    memset(header, 0, sizeof *header);
    unsigned char signature[8];
    if (fread(signature, 1, 8, file) != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        snprintf(message, FG_PNG_MESSAGE_SIZE, "not a PNG file");
        return NULL;
    }
    fg_png_reader *reader = calloc(1, sizeof *reader);
    if (reader) {
        reader->context.message = message;
        reader->file = file;
        reader->should_stop = should_stop;
        reader->stop_context = stop_context;
        reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->context, on_error, on_warning);
        reader->info = reader->png ? png_create_info_struct(reader->png) : NULL;
    }
    if (!reader || !reader->png || !reader->info) {
        snprintf(message, FG_PNG_MESSAGE_SIZE, "out of memory");
        if (reader) destroy_reader(reader);
        return NULL;
    }
    if (setjmp(reader->context.jump)) {
        explain_read_error(&reader->context);
        destroy_reader(reader);
        return NULL;
    }
    read_header(reader, header);
    return reader;
}

int fg_png_read_rows(fg_png_reader *reader, void *pixels, char message[FG_PNG_MESSAGE_SIZE]) {
    message[0] = 0;
    reader->context.message = message;
    reader->context.ours = 0;
    png_structp png = reader->png;
    uint32_t height = reader->height;
    size_t row_bytes = png_get_rowbytes(png, reader->info);
    png_bytep *volatile rows = NULL;
    if (setjmp(reader->context.jump)) {
        free(rows);
        if (reader->rows_complete) {
            message[0] = 0;
            return 0;
        }
        if (reader->stopped) return FG_PNG_STOPPED;
        explain_read_error(&reader->context);
        return -1;
    }
    rows = malloc(sizeof(png_bytep) * height);
    if (!rows) fail(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)pixels + (size_t)y * row_bytes;
    reader->reading_rows = 1;
    for (int pass = 0; pass < reader->passes; pass++) {
        for (uint32_t y = 0; y < height; y++) png_read_row(png, rows[y], NULL);
    }
    /* The chunks after the image data are not read: nothing in them changes a pixel. */
    free(rows);
    return 0;
}

void fg_png_close(fg_png_reader *reader) {
    if (reader) destroy_reader(reader);
}
