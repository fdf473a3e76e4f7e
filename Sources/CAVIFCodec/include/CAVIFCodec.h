// A thin C layer over libavif's decoder: one handle for a still AVIF or an image
// sequence, its colour and alpha converted to RGBA together (ffmpeg 5.1 drops the alpha
// item of a still AVIF and hands a sequence's alpha track over as a separate stream),
// and every failure turned into a return code and a message.
#pragma once
#include <stddef.h>
#include <stdint.h>

#define FG_AVIF_MESSAGE_SIZE 256

/// An open AVIF file; opaque.
typedef struct fg_avif_sequence fg_avif_sequence;

typedef struct {
    uint32_t width;
    uint32_t height;
    /// 1 for a still image.
    uint32_t frame_count;
    /// The samples fg_avif_next writes: 8 for an 8-bit AVIF, 16 for 10- and 12-bit ones.
    int bit_depth;
    /// The colour primaries of the file's CICP (nclx) tags: 1 BT.709, 12 Display P3.
    int color_primaries;
} fg_avif_info;

/// Opens the AVIF file held in `bytes`, which are not copied and must outlive the
/// handle. Refuses an image over 2^26 pixels (64 Mpixels, as the PNG reader does).
/// Returns the handle and fills `info`, or returns NULL with a message.
fg_avif_sequence *fg_avif_open(const uint8_t *bytes, size_t size, fg_avif_info *info,
                               char message[FG_AVIF_MESSAGE_SIZE]);

/// How long frame `index` (0-based, below `frame_count`) shows, in seconds; 0 for a still
/// image (one without tracks).
double fg_avif_frame_duration(const fg_avif_sequence *sequence, uint32_t index);

/// Decodes the next frame into `rgba`: width x height x 4 samples (R, G, B, A; straight
/// alpha, full range; A at its maximum when the file has no alpha) of `bit_depth` bits,
/// each in a uint16_t. Returns 1, 0 after the last frame, or -1 with a message.
int fg_avif_next(fg_avif_sequence *sequence, uint16_t *rgba, char message[FG_AVIF_MESSAGE_SIZE]);

void fg_avif_close(fg_avif_sequence *sequence);
