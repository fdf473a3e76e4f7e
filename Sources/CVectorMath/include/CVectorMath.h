#ifndef CVECTORMATH_H
#define CVECTORMATH_H

#include <math.h>

#include "CGrainRow.h"

/// Four floats as one vector; Swift imports it as SIMD4<Float>.
typedef float fg_float4 __attribute__((ext_vector_type(4)));

/// The correctly rounded square root of each lane, as one vector instruction.
///
/// Swift's SIMD4<Float>.squareRoot() takes each lane through the C library's sqrtf
/// on Linux, with a branch per lane for errno; the rasteriser's rim coverage runs it
/// for every sample. The results are bit for bit the same.
static inline __attribute__((always_inline)) fg_float4 fg_square_root4(fg_float4 v) {
#if __has_builtin(__builtin_elementwise_sqrt)
    return __builtin_elementwise_sqrt(v);
#else
    return (fg_float4){sqrtf(v.x), sqrtf(v.y), sqrtf(v.z), sqrtf(v.w)};
#endif
}

#endif
