#include "CAVIFCodec.h"

#include <avif/avif.h>
#include <stdio.h>
#include <stdlib.h>

struct fg_avif_sequence {
    avifDecoder *decoder;
    avifRGBImage rgb;
    uint32_t width;
    uint32_t height;
    uint32_t frames_decoded;
    /* A still image (no tracks), whose one frame has no duration. */
    int still;
};

/* The largest image: 64 Mpixels, as the PNG reader allows. */
static const uint32_t largest_image = (uint32_t)1 << 26;

/* Our sentence for a libavif failure while reading the file's structure. */
static void describe_parse_failure(avifResult result, char message[FG_AVIF_MESSAGE_SIZE]) {
    if (result == AVIF_RESULT_TRUNCATED_DATA) {
        snprintf(message, FG_AVIF_MESSAGE_SIZE, "the file ends early: it is truncated or damaged");
    } else {
        snprintf(message, FG_AVIF_MESSAGE_SIZE, "not an AVIF image, or a damaged one (libavif: %s)",
                 avifResultToString(result));
    }
}

fg_avif_sequence *fg_avif_open(const uint8_t *bytes, size_t size, fg_avif_info *info,
                               char message[FG_AVIF_MESSAGE_SIZE]) {
    message[0] = 0;
    fg_avif_sequence *sequence = calloc(1, sizeof *sequence);
    avifDecoder *decoder = sequence ? avifDecoderCreate() : NULL;
    if (!decoder) {
        free(sequence);
        snprintf(message, FG_AVIF_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    sequence->decoder = decoder;
    decoder->maxThreads = 1;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    decoder->imageSizeLimit = largest_image;
    avifResult result = avifDecoderSetIOMemory(decoder, bytes, size);
    /* An image sequence is read from its tracks; a still image, which has none, from its
       primary item. */
    int still = 0;
    if (result == AVIF_RESULT_OK) result = avifDecoderSetSource(decoder, AVIF_DECODER_SOURCE_TRACKS);
    if (result == AVIF_RESULT_OK) result = avifDecoderParse(decoder);
    if (result == AVIF_RESULT_NO_CONTENT) {
        still = 1;
        result = avifDecoderSetSource(decoder, AVIF_DECODER_SOURCE_PRIMARY_ITEM);
        if (result == AVIF_RESULT_OK) result = avifDecoderParse(decoder);
    }
    if (result != AVIF_RESULT_OK) {
        describe_parse_failure(result, message);
        fg_avif_close(sequence);
        return NULL;
    }
    const avifImage *image = decoder->image;
    if ((uint64_t)image->width * image->height > largest_image) {
        snprintf(message, FG_AVIF_MESSAGE_SIZE, "it is %ux%u, over 67 million pixels; scale it down first",
                 image->width, image->height);
        fg_avif_close(sequence);
        return NULL;
    }
    sequence->still = still;
    sequence->width = image->width;
    sequence->height = image->height;
    info->width = image->width;
    info->height = image->height;
    info->frame_count = (uint32_t)decoder->imageCount;
    info->bit_depth = image->depth > 8 ? 16 : 8;
    info->color_primaries = (int)image->colorPrimaries;
    return sequence;
}

double fg_avif_frame_duration(const fg_avif_sequence *sequence, uint32_t index) {
    if (sequence->still) return 0;
    avifImageTiming timing;
    if (avifDecoderNthImageTiming(sequence->decoder, index, &timing) != AVIF_RESULT_OK) return 0;
    return timing.duration;
}

/* Converts the decoded frame to RGBA at 8 or 16 bits into the sequence's own buffer. */
static avifResult convert(fg_avif_sequence *sequence) {
    const avifImage *image = sequence->decoder->image;
    if (!sequence->rgb.pixels) {
        avifRGBImageSetDefaults(&sequence->rgb, image);
        sequence->rgb.format = AVIF_RGB_FORMAT_RGBA;
        sequence->rgb.depth = image->depth > 8 ? 16 : 8;
        /* libavif's own conversion: libyuv's is faster but rounds more. */
        sequence->rgb.avoidLibYUV = AVIF_TRUE;
        avifRGBImageAllocatePixels(&sequence->rgb);
        if (!sequence->rgb.pixels) return AVIF_RESULT_OUT_OF_MEMORY;
    }
    return avifImageYUVToRGB(image, &sequence->rgb);
}

int fg_avif_next(fg_avif_sequence *sequence, uint16_t *rgba, char message[FG_AVIF_MESSAGE_SIZE]) {
    message[0] = 0;
    avifDecoder *decoder = sequence->decoder;
    avifResult result = avifDecoderNextImage(decoder);
    if (result == AVIF_RESULT_NO_IMAGES_REMAINING) return 0;
    if (result == AVIF_RESULT_OK && (decoder->image->width != sequence->width ||
                                     decoder->image->height != sequence->height)) {
        snprintf(message, FG_AVIF_MESSAGE_SIZE, "frame %u is %ux%u, not %ux%u as the file says",
                 sequence->frames_decoded, decoder->image->width, decoder->image->height, sequence->width,
                 sequence->height);
        return -1;
    }
    if (result == AVIF_RESULT_OK) result = convert(sequence);
    if (result != AVIF_RESULT_OK) {
        snprintf(message, FG_AVIF_MESSAGE_SIZE, "frame %u cannot be decoded: the file is damaged (libavif: %s)",
                 sequence->frames_decoded, avifResultToString(result));
        return -1;
    }
    const avifRGBImage *rgb = &sequence->rgb;
    size_t row_samples = (size_t)sequence->width * 4;
    for (uint32_t y = 0; y < sequence->height; y++) {
        const uint8_t *row = rgb->pixels + (size_t)y * rgb->rowBytes;
        uint16_t *out = rgba + (size_t)y * row_samples;
        if (rgb->depth == 8) {
            for (size_t i = 0; i < row_samples; i++) out[i] = row[i];
        } else {
            for (size_t i = 0; i < row_samples; i++) out[i] = ((const uint16_t *)row)[i];
        }
    }
    sequence->frames_decoded += 1;
    return 1;
}

void fg_avif_close(fg_avif_sequence *sequence) {
    if (!sequence) return;
    avifRGBImageFreePixels(&sequence->rgb);
    avifDecoderDestroy(sequence->decoder);
    free(sequence);
}
