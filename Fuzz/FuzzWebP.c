// A libFuzzer entry point for the WebP shim (Sources/CWebPCodec), which hands outside bytes
// to libwebp's demuxer and animation decoder. Built by Scripts/fuzz.sh with clang, never by
// SwiftPM. A crash, a sanitizer report or a broken promise below is a finding; a refused
// file is the expected outcome.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "CWebPCodec.h"

/* What fg_webp_open promises of a file it opens: a canvas of 1 to 2^26 pixels and at
   least one frame. */
static void check_info(const fg_webp_info *info) {
    if (info->width == 0 || info->height == 0 || (uint64_t)info->width * info->height > ((uint64_t)1 << 26) ||
        info->frame_count == 0) {
        fprintf(stderr, "fg_webp_open accepted %ux%u with %u frames\n", info->width, info->height,
                info->frame_count);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[FG_WEBP_MESSAGE_SIZE];
    fg_webp_info info;
    fg_webp_animation *animation = fg_webp_open(data, size, &info, message);
    if (!animation) return 0;
    check_info(&info);
    for (uint32_t index = 0; index < info.frame_count; index++) {
        if (fg_webp_frame_duration(animation, index) < 0) abort();
    }
    size_t last = (size_t)info.width * info.height * 4 - 1;
    volatile uint8_t sink = 0;
    uint32_t decoded = 0;
    const uint8_t *pixels = NULL;
    int status;
    while ((status = fg_webp_next(animation, &pixels, message)) == 1) {
        if (!pixels) abort();
        /* Both ends of the canvas must be readable (AddressSanitizer checks the bounds). */
        sink ^= pixels[0] ^ pixels[last];
        if (++decoded > info.frame_count) abort();
    }
    (void)sink;
    fg_webp_close(animation);
    return 0;
}
