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
    png_set_IHDR(png, info, width, height, bit_depth,
                 channels == 4 && !drop_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
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

/* Whether `channels` is 3 or 4; otherwise says so in `message`. */
static int usable_channels(int channels, char message[FG_PNG_MESSAGE_SIZE]) {
    if (channels == 3 || channels == 4) return 1;
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
   profile (copied, for the caller to identify). */
static void read_colour_tags(png_structp png, png_infop info, fg_png_image *image) {
    png_unknown_chunkp chunks = NULL;
    int count = png_get_unknown_chunks(png, info, &chunks);
    for (int index = 0; index < count; index++) {
        if (memcmp(chunks[index].name, "cICP", 4) == 0 && chunks[index].size == 4)
            image->cicp_primaries = chunks[index].data[0];
    }
    int intent;
    image->has_srgb = png_get_sRGB(png, info, &intent) != 0;
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 length;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &length) && length > 0 && length < (1u << 24)) {
        image->icc_profile = malloc(length);
        if (!image->icc_profile) fail(png, "out of memory");
        memcpy(image->icc_profile, profile, length);
        image->icc_length = length;
    }
}

int fg_png_read_stream(FILE *file, fg_png_image *image, char message[FG_PNG_MESSAGE_SIZE]) {
    message[0] = 0;
    memset(image, 0, sizeof(*image));
    image->cicp_primaries = -1;
    unsigned char signature[8];
    if (fread(signature, 1, 8, file) != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        snprintf(message, FG_PNG_MESSAGE_SIZE, "not a PNG file");
        return -1;
    }
    error_context context = {.message = message};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *volatile rows = NULL;
    void *volatile pixels = NULL;
    if (!png || !info) {
        snprintf(message, FG_PNG_MESSAGE_SIZE, "out of memory");
        png_destroy_read_struct(&png, NULL, NULL);
        return -1;
    }
    if (setjmp(context.jump)) {
        free(rows);
        free(pixels);
        free(image->icc_profile);
        image->icc_profile = NULL;
        png_destroy_read_struct(&png, &info, NULL);
        /* libpng's stdio reader says only "Read Error" when the data runs out. */
        if (strcmp(message, "Read Error") == 0) {
            snprintf(message, FG_PNG_MESSAGE_SIZE, "the file ends early: it is truncated or damaged");
        } else if (!context.ours) {
            char detail[FG_PNG_MESSAGE_SIZE];
            snprintf(detail, sizeof detail, "%s", message);
            snprintf(message, FG_PNG_MESSAGE_SIZE, "the PNG is damaged, or over 65536 pixels a side (libpng: %s)", detail);
        }
        return -1;
    }
    png_init_io(png, file);
    png_set_sig_bytes(png, 8);
    png_set_user_limits(png, 1u << 16, 1u << 16);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_ALWAYS, (png_const_bytep) "cICP", 1);
    png_read_info(png, info);
    read_colour_tags(png, info, image);
    png_set_expand(png);
    png_set_gray_to_rgb(png);
    if (png_get_bit_depth(png, info) == 16) png_set_swap(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    uint32_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    int channels = png_get_channels(png, info), bit_depth = png_get_bit_depth(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    if ((channels != 3 && channels != 4) || (bit_depth != 8 && bit_depth != 16))
        fail(png, "unsupported pixel layout");
    /* 64 Mpixels, as the largest frame: up to 512 MiB decoded. */
    if ((uint64_t)width * height > ((uint64_t)1 << 26)) {
        char text[FG_PNG_MESSAGE_SIZE];
        snprintf(text, sizeof text, "it is %ux%u, over 67 million pixels; scale it down first", width, height);
        fail(png, text);
    }
    pixels = malloc(row_bytes * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) fail(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)pixels + (size_t)y * row_bytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    image->width = width;
    image->height = height;
    image->channels = channels;
    image->bit_depth = bit_depth;
    image->pixels = pixels;
    return 0;
}

void fg_png_free(fg_png_image *image) {
    free(image->pixels);
    image->pixels = NULL;
    free(image->icc_profile);
    image->icc_profile = NULL;
}
