// A thin C layer over libwebp's demux API (WebPAnimDecoder): one handle that owns the
// decoder and its canvas, size limits checked before anything large is allocated, and
// every failure turned into a return code and a message.
#pragma once
#include <stddef.h>
#include <stdint.h>

#define FG_WEBP_MESSAGE_SIZE 256

/// An open WebP file, still or animated; opaque.
typedef struct fg_webp_animation fg_webp_animation;

typedef struct {
    /// The canvas: every frame is this size.
    uint32_t width;
    uint32_t height;
    /// 1 for a still image.
    uint32_t frame_count;
    /// 0 = forever.
    uint32_t loop_count;
} fg_webp_info;

/// Opens the WebP file held in `bytes`, which are not copied and must outlive the
/// handle. Refuses a canvas over 2^26 pixels (64 Mpixels, as the PNG reader does).
/// Returns the handle and fills `info`, or returns NULL with a message.
fg_webp_animation *fg_webp_open(const uint8_t *bytes, size_t size, fg_webp_info *info,
                                char message[FG_WEBP_MESSAGE_SIZE]);

/// How long frame `index` (0-based, below `frame_count`) shows, in milliseconds; 0 for a
/// still image.
int fg_webp_frame_duration(const fg_webp_animation *animation, uint32_t index);

/// Decodes the next frame onto the canvas. On 1, `*pixels` points to width x height
/// RGBA pixels, 8 bits a sample, straight (not premultiplied) alpha, owned by the
/// handle and valid until the next call. Returns 1, 0 after the last frame, or -1 with
/// a message.
int fg_webp_next(fg_webp_animation *animation, const uint8_t **pixels, char message[FG_WEBP_MESSAGE_SIZE]);

void fg_webp_close(fg_webp_animation *animation);
