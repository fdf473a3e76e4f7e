#ifndef CGRAINROW_H
#define CGRAINROW_H

#include <stdint.h>

/// One output row of dithered 8-bit RGBA with grain (DESIGN section 12), alpha 255: the
/// grain path of the output pass's expanded rows (Render/Output/GrainLayer.swift).
///
/// Pixel `x` lies between cells `c = column_cell[x]` and `c + 1`: its levels are
/// `L = (cells[c] + ½) + f·deltas[c]`, with `f` the four lanes at `fraction_lanes[4x]`; in a
/// run of groups of four pixels that share a cell, each group after the first adds
/// `deltas[c]·(4·fraction_step)` to the one before (the fraction grows by `fraction_step` a
/// pixel), which differs from `L` by a few units in the last place. The
/// grain's overlay takes them to `L + g·min(L, 255 − L)`, `g` the four lanes at
/// `slopes[4·(x & mask)]`; then the dither threshold less ½ at
/// `thresholds[4·((x + phase) & 63)]` is added, and `⌊· + ½⌋` (halves to even), clamped to
/// 0...255, is the sample. Every operation is one IEEE single-precision operation in this
/// order, with no contraction into fused multiply-adds, so the bytes are the same on every
/// machine.
///
/// - Parameters:
///   - cells: the row's cells, RGBA floats in levels less ½.
///   - deltas: each cell's difference to the next.
///   - column_cell: each pixel's cell.
///   - fraction_lanes: each pixel's fraction between its cells, four times.
///   - fraction_step: how much the fraction grows from one pixel to the next inside a cell.
///   - thresholds: the dither row less ½, 80 RGBA values (64 and the first 16 again).
///   - phase: where the row starts reading the thresholds.
///   - slopes: the grain row's `g = 2N − 1`, RGBA (alpha 0).
///   - mask: `x & mask` indexes `slopes`: 255 for a tile row, -1 for a row of the frame's width.
///   - width: the pixels of the row.
///   - out: `4 × width` bytes.
///
/// `cells`, `deltas`, `thresholds` and `slopes` are 16-byte aligned (SIMD4<Float> storage).
void fg_pack_rgba_grain(const float *cells, const float *deltas, const int32_t *column_cell,
                        const float *fraction_lanes, float fraction_step, const float *thresholds, long phase,
                        const float *slopes, long mask, long width, uint8_t *out);

#endif
