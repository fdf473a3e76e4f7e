// The render pipeline: how a frame is made, and why it is made this way.
//
// DESIGN section 1 defines a frame: composite the blobs at every pixel, blur with a
// Gaussian of σ, composite onto the background, quantise. ``ReferenceRenderer`` does
// exactly that, slowly, and is the tests' oracle. The production path,
// ``FrameRenderer``, gets within DESIGN's tolerance of it (largest error 2/255, mean
// 0.5/255, dither off) by compositing and blurring on a coarser grid:
//
// 1. Compile (`Compile/`, ``CompiledScene``): the scene becomes a flat stack program over
//    placed blobs, in `Float`: the base blobs source-over, then the highlight blobs on a
//    layer of their own, overlaid (DESIGN section 1, steps 2 and 3). A renderer compiles it
//    once; each frame with as many base and highlight blobs only places the blobs again.
// 2. Size the grid (`Grid/`, ``WorkingGrid``): cells of about σ/2 (`targetSigmaInCells`), or
//    the pixels themselves when σ is under 8 pixels. A scene with rims too thin for
//    those cells takes a grid of at most 16-pixel cells (``WorkingGrid/resolvesRims(of:)``).
// 3. Lay out the cells (`Cells/`, ``CellSpan``): what each cell's samples cover along each axis,
//    by the edge mode.
// 4. Rasterise (`Rasterise/`, ``WorkingGrid/rasterize(_:columnSpans:rowSpans:options:scratches:into:threads:)``),
//    row by row:
//    a. classify (``RasterRow/classify``): each blob inside, outside or across its rim
//       in each cell, from the exact least and greatest `d²` over the cell;
//    b. composite each cell (``CellCompositor``) by its ``CellStrategy``, with the
//       terms of each pattern of fixed coverages kept in a ``PatternCache``;
//    c. add the pixel-centre cells' moments (``WorkingGrid/depositMoments``).
// 5. Blur (`Blur/`, ``WorkingGrid/blur``): a separable Gaussian on the grid, keeping the cells
//    around the frame.
// 6. Refine (`Refine/`, ``WorkingGrid/refine``): 2× by Catmull-Rom.
// 7. Output (`Output/`, ``OutputPass``): per pixel, bilinear resampling, the background, the
//    ordered dither, quantisation and packing, in one pass over the rows.
//
// Each stage has the folder named above. ``GridStages`` runs steps 3 to 7 and keeps their
// buffers between frames; ``FrameRenderer`` runs them all. `Reference/` holds the oracle.
//
// Invariants (each is an `assert` where it is relied on):
//
// - The grid's variances add up: the box of a cell (`k²/12`), the grid blur and the
//   bilinear step (`(k/2)²/8`) make DESIGN's σ² per axis (``WorkingGrid/Axis``).
// - The blur's taps stay in the grid: `blurredCount + taps − 1 = gridCount`, since the
//   grid has the blur's reach plus the kept cells as margins (``WorkingGrid/blur``).
// - A cell has at most 17 samples per axis (``WorkingGrid/maximumCentres``): 16
//   sub-samples, or the pixels a span of at most 16 pixels cuts.
// - The rim coverage loop goes four samples at a time and runs up to 3 floats past a
//   row (``RasterScratch/spill``); the scratch buffers have room for that past their
//   last row (``CellCompositor/sample(_:entry:scratch:)``).
// - A folded program is never longer than the scene's (``FoldedPattern``), and a
//   pattern always takes the same ``CellStrategy``, so a cached entry holds the terms of
//   its own strategy (``PatternTerms``).
// - Chunks of rows never share an element they write (``SharedBuffer``), and the
//   moments are added in grid order: the bytes do not depend on the thread count.
//
// Shortcuts, each measured (BENCHMARKS.md; ms per 1080p frame unless said):
//
// - Working grid of σ/2 cells: the grid stages cost about 0.1 ms at the default blur
//   against the output pass's 0.9. Coarser cells (σ/1.5) saved 11% at blur 0.5 but
//   lost the accuracy (1.71 levels against 0.82).
// - Exact rim classification and runs of cells found by bisection: cells are sorted
//   without sampling; ``RasterOptions/classifiesEveryColumn`` is the direct check.
// - Chord and bilinear surface per pattern, instead of compositing every sub-sample:
//   with the pattern cache, row 3 of BENCHMARKS.md went 1.46× → 1.37×; where the
//   check fails, compositing every sub-sample is the raster's largest item (about
//   0.15 ms at blur 0.5). Checked at the quarter points before use, since blends that
//   bend fooled a check at the middle; ``RasterOptions/samplesEveryRim`` is the
//   direct check.
// - The pattern cache (128 slots per chunk of rows): folding and corner composites
//   0.15 → 0.04 ms on one core.
// - Every sub-sample of a cell composited at once, operation by operation: the
//   48-blob raster 2.55 → 1.76 ms on one thread.
// - Rim coverage four at a time with `sqrtps` (CVectorMath): raster at blur 0.5
//   0.435 → 0.385 ms on one core; bit for bit the scalar formula.
// - The blur's symmetric kernel folded, four outputs in registers: 0.14 → 0.08 ms,
//   then 0.098 → 0.085 ms; on one thread below 2M taps, where a second thread cost
//   more than it saved (0.25 against 0.20 ms at 4K, blur 0.5).
// - The fused output pass, and for an opaque solid background ``ExpandedRows``
//   (RGBA interpolating two grid rows of cells per output row instead of expanding
//   each grid row to full width): output at blur 0.9 1.09 → 0.89 ms on two cores.
