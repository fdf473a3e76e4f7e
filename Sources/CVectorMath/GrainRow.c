// The grain path's row kernel (include/CGrainRow.h): four pixels at a time, one vector of
// four floats a pixel. It works on levels `L` (the cells' levels less ½, plus ½), where the overlay
// is `L + g·min(L, 255 − L)`: a copy, a subtraction, a minimum, a multiply and an add a vector;
// the ½ comes back off through the thresholds, which are passed less ½.
#include "CGrainRow.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// A multiply and an add stay two roundings on every target: the bytes must not depend on
// whether the compiler may fuse them.
#pragma clang fp contract(off)

typedef float float4 __attribute__((ext_vector_type(4)));
typedef int32_t int4 __attribute__((ext_vector_type(4)));

static inline float4 load4(const float *p) {
    float4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/// A vector from 16-byte aligned memory, which SSE arithmetic can read in place.
static inline float4 aligned4(const float *p) { return *(const float4 *)__builtin_assume_aligned(p, 16); }

/// `a < b ? a : b` in each lane: `minps` on x86.
static inline float4 lesser(float4 a, float4 b) {
#if defined(__SSE2__)
    return (float4)_mm_min_ps((__m128)a, (__m128)b);
#else
    return (float4){a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z, a.w < b.w ? a.w : b.w};
#endif
}

/// Grain's overlay on a pixel's levels: `L + g·min(L, 255 − L)`.
static inline float4 overlay(float4 level, const float *g) { return level + aligned4(g) * lesser(level, 255.0f - level); }

/// `⌊v + ½⌋` of each lane for −½ ≤ v < 2²² (as ExpandedRows.floor: adding 1.5·2²³ rounds
/// to an integer, halves to even, which the low mantissa bits then hold).
static inline int4 rounded(float4 v) {
    float4 shifted = v + 12582912.0f;
    int4 bits;
    memcpy(&bits, &shifted, sizeof bits);
    return bits - 0x4B400000;
}

/// Four pixels' samples, clamped to 0...255, with alpha 255.
static inline void store4(int4 a, int4 b, int4 c, int4 d, uint8_t *out) {
#if defined(__SSE2__)
    __m128i low = _mm_packs_epi32((__m128i)a, (__m128i)b), high = _mm_packs_epi32((__m128i)c, (__m128i)d);
    __m128i bytes = _mm_or_si128(_mm_packus_epi16(low, high), _mm_set1_epi32((int)0xFF000000));
    _mm_storeu_si128((__m128i *)out, bytes);
#else
    int4 pixels[4] = {a, b, c, d};
    for (int i = 0; i < 16; i++) {
        int32_t level = pixels[i / 4][i % 4];
        out[i] = (i & 3) == 3 ? 255 : (uint8_t)(level < 0 ? 0 : level > 255 ? 255 : level);
    }
#endif
}

void fg_pack_rgba_grain(const float *cells, const float *deltas, const int32_t *column_cell,
                        const float *fraction_lanes, float fraction_step, const float *thresholds, long phase,
                        const float *slopes, long mask, long width, uint8_t *out) {
    long x = 0;
    // The levels of the last group whose four pixels shared a cell, that cell, and the
    // levels' change over four pixels.
    float4 r0 = 0, r1 = 0, r2 = 0, r3 = 0, run_step = 0;
    int32_t run_cell = -1;
    for (; x + 4 <= width; x += 4) {
        int32_t cell = column_cell[x];
        float4 l0, l1, l2, l3;
        if (column_cell[x + 3] == cell) {
            if (cell == run_cell) {
                r0 += run_step, r1 += run_step, r2 += run_step, r3 += run_step;
            } else {
                float4 a = aligned4(cells + 4 * cell) + 0.5f, d = aligned4(deltas + 4 * cell);
                const float *f = fraction_lanes + 4 * x;
                r0 = a + load4(f) * d, r1 = a + load4(f + 4) * d, r2 = a + load4(f + 8) * d, r3 = a + load4(f + 12) * d;
                run_step = d * (4 * fraction_step);
                run_cell = cell;
            }
            l0 = r0, l1 = r1, l2 = r2, l3 = r3;
        } else {
            float4 p[4];
            for (int k = 0; k < 4; k++) {
                long c = column_cell[x + k];
                p[k] = (aligned4(cells + 4 * c) + 0.5f) + load4(fraction_lanes + 4 * (x + k)) * aligned4(deltas + 4 * c);
            }
            l0 = p[0], l1 = p[1], l2 = p[2], l3 = p[3];
            run_cell = -1;
        }
        const float *g = slopes + 4 * (x & mask), *t = thresholds + 4 * ((x + phase) & 63);
        l0 = overlay(l0, g) + aligned4(t), l1 = overlay(l1, g + 4) + aligned4(t + 4);
        l2 = overlay(l2, g + 8) + aligned4(t + 8), l3 = overlay(l3, g + 12) + aligned4(t + 12);
        store4(rounded(l0), rounded(l1), rounded(l2), rounded(l3), out + 4 * x);
    }
    for (; x < width; x++) {
        long c = column_cell[x];
        float4 level = (aligned4(cells + 4 * c) + 0.5f) + load4(fraction_lanes + 4 * x) * aligned4(deltas + 4 * c);
        level = overlay(level, slopes + 4 * (x & mask)) + aligned4(thresholds + 4 * ((x + phase) & 63));
        for (int lane = 0; lane < 3; lane++) {
            float sample = level[lane] + 0.5f;
            out[4 * x + lane] = (uint8_t)(sample < 0 ? 0 : sample > 255 ? 255 : sample);
        }
        out[4 * x + 3] = 255;
    }
}
