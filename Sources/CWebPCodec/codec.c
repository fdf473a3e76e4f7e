#include "CWebPCodec.h"

#include <stdio.h>
#include <stdlib.h>
#include <webp/demux.h>

struct fg_webp_animation {
    WebPAnimDecoder *decoder;
    /* Owned by the decoder. */
    const WebPDemuxer *demuxer;
    uint32_t frames_decoded;
};

/* The largest canvas: 64 Mpixels, as the PNG reader allows (256 MiB of RGBA). */
static const uint64_t largest_canvas = (uint64_t)1 << 26;

/* Why `data` does not demux as a whole file: cut short, or not WebP at all. */
static void describe_demux_failure(const WebPData *data, char message[FG_WEBP_MESSAGE_SIZE]) {
    WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
    WebPDemuxer *partial = WebPDemuxPartial(data, &state);
    WebPDemuxDelete(partial);
    if (state == WEBP_DEMUX_PARSING_HEADER || state == WEBP_DEMUX_PARSED_HEADER) {
        snprintf(message, FG_WEBP_MESSAGE_SIZE, "the file ends early: it is truncated or damaged");
    } else {
        snprintf(message, FG_WEBP_MESSAGE_SIZE, "not a WebP image, or a damaged one");
    }
}

fg_webp_animation *fg_webp_open(const uint8_t *bytes, size_t size, fg_webp_info *info,
                                char message[FG_WEBP_MESSAGE_SIZE]) {
    message[0] = 0;
    WebPData data = {.bytes = bytes, .size = size};
    WebPDemuxer *probe = WebPDemux(&data);
    if (!probe) {
        describe_demux_failure(&data, message);
        return NULL;
    }
    uint32_t width = WebPDemuxGetI(probe, WEBP_FF_CANVAS_WIDTH);
    uint32_t height = WebPDemuxGetI(probe, WEBP_FF_CANVAS_HEIGHT);
    WebPDemuxDelete(probe);
    if ((uint64_t)width * height > largest_canvas) {
        snprintf(message, FG_WEBP_MESSAGE_SIZE, "it is %ux%u, over 67 million pixels; scale it down first", width,
                 height);
        return NULL;
    }
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        snprintf(message, FG_WEBP_MESSAGE_SIZE, "the libwebp library does not match the one this was built with");
        return NULL;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    fg_webp_animation *animation = calloc(1, sizeof *animation);
    if (!animation) {
        snprintf(message, FG_WEBP_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    animation->decoder = WebPAnimDecoderNew(&data, &options);
    WebPAnimInfo anim;
    if (!animation->decoder || !WebPAnimDecoderGetInfo(animation->decoder, &anim)) {
        snprintf(message, FG_WEBP_MESSAGE_SIZE, "not a WebP image libwebp can decode, or a damaged one");
        fg_webp_close(animation);
        return NULL;
    }
    animation->demuxer = WebPAnimDecoderGetDemuxer(animation->decoder);
    info->width = anim.canvas_width;
    info->height = anim.canvas_height;
    info->frame_count = anim.frame_count;
    info->loop_count = anim.loop_count;
    return animation;
}

int fg_webp_frame_duration(const fg_webp_animation *animation, uint32_t index) {
    WebPIterator iterator;
    /* The demuxer numbers frames from 1; 0 would mean the last one. */
    if (!WebPDemuxGetFrame(animation->demuxer, (int)index + 1, &iterator)) return 0;
    int duration = iterator.duration;
    WebPDemuxReleaseIterator(&iterator);
    return duration;
}

int fg_webp_next(fg_webp_animation *animation, const uint8_t **pixels, char message[FG_WEBP_MESSAGE_SIZE]) {
    message[0] = 0;
    if (!WebPAnimDecoderHasMoreFrames(animation->decoder)) return 0;
    uint8_t *canvas = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(animation->decoder, &canvas, &timestamp)) {
        snprintf(message, FG_WEBP_MESSAGE_SIZE, "frame %u cannot be decoded: the file is damaged",
                 animation->frames_decoded);
        return -1;
    }
    animation->frames_decoded += 1;
    *pixels = canvas;
    return 1;
}

void fg_webp_close(fg_webp_animation *animation) {
    if (!animation) return;
    WebPAnimDecoderDelete(animation->decoder);
    free(animation);
}
