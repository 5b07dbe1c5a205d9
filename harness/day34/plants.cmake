# Day 34's planted bugs: each pitfall the exercise (exercises/day34/heat_tiled.cu)
# and grading.md name, as an edit of the course's code or the solution, held
# to the gate that must catch it on the graded inputs (see grading_plant in
# cmake/Grading.cmake). Instructor-only: the student kit leaves this file out.

grading_plant(one_buffer
  WHAT "resetPingPong uploads the initial grid into the first buffer only; the kernels never write the ring, so the second buffer's ring is whatever the allocation held"
  EDIT heat_pingpong.cu
  FIND [[    CUDA_TRY(cudaMemcpy(b, hostInit, bytes, cudaMemcpyHostToDevice));]]
  REPLACE [[    (void)b;  // "the kernel writes b anyway"]]
  # The first buffer keeps its ring, so the grid after 4 steps looks right on
  # the wall; the second (after 3) still holds the runner's poison there.
  FAILS 34.ring CASES global_course_2048 tiled_course_2048
  EXPECT [[heatStep(Global|Tiled) moved a boundary cell after 3 steps: index 0 \(row 0, col 0\): got -26711958, want 1]])

grading_plant(apron_row_short
  WHAT "the fill loop stops one apron row early: the bottom halo row is never loaded and the tile's last output row reads stale shared memory"
  EDIT solution/heat_tiled.cu
  FIND [[    for (int s = self; s < kSharedCells; s += threads) {]]
  REPLACE [[    for (int s = self; s < kSharedCells - kSharedX; s += threads) {  // one apron row short]]
  FAILS 34.stencil CASES tiled_course_2048 tiled_seeded_517
  EXPECT [[heatStepTiled wrong after 4 steps at row [0-9]+, col [0-9]+: got (-?nan|-?inf|[-+.e0-9]+), want [-+.e0-9]+]]
  # The ring is never written, only read wrong; the course's kernel in the same runner is untouched.
  PASSES 34.ring 34.stencil@global_course_2048)

grading_plant(apron_column_short
  WHAT "the fill loop skips the apron's last column: the east halo is never loaded and the tile's last output column reads stale shared memory"
  EDIT solution/heat_tiled.cu
  FIND [[        const int ax = s % kSharedX;]]
  REPLACE [[        const int ax = s % kSharedX;
        if (ax == kSharedX - 1) continue;  // the east halo column is never loaded]]
  FAILS 34.stencil CASES tiled_seeded_517
  EXPECT [[heatStepTiled wrong after 4 steps at row [0-9]+, col [0-9]+: got (-?nan|-?inf|[-+.e0-9]+), want [-+.e0-9]+]]
  LARGE_COUNTEREXAMPLE "only a tile whose interior is 32 cells wide reads its last apron column: a side of 34 or more"
  PASSES 34.ring)

grading_plant(no_sync
  WHAT "no barrier between filling the apron and reading it: threads read cells another warp has not stored yet (a race: it may pass a run by luck)"
  EDIT solution/heat_tiled.cu
  FIND [[    __syncthreads();]]
  REPLACE [[    // (no barrier: the apron is read while other warps may still be filling it)]]
  FAILS 34.stencil CASES tiled_course_2048 tiled_seeded_2048 ATTEMPTS 5
  EXPECT [[heatStepTiled wrong after 4 steps at row [0-9]+, col [0-9]+: got (-?nan|-?inf|[-+.e0-9]+), want [-+.e0-9]+]]
  LARGE_COUNTEREXAMPLE "a race between warps, which a small grid's few warps rarely lose")

grading_plant(no_sync_exposed
  WHAT "the missing barrier with the race made certain: the apron poisoned with NaN first and every warp but the first held back about 200k cycles before its loads"
  EDIT solution/heat_tiled.cu
  FIND [[    for (int s = self; s < kSharedCells; s += threads) {
        const int ay = s / kSharedX;
        const int ax = s % kSharedX;
        const int gy = originRow - kHalo + ay;
        const int gx = originCol - kHalo + ax;
        const bool onGrid = gx >= 0 && gx < n && gy >= 0 && gy < n;
        apron[ay][ax] = onGrid ? in[static_cast<size_t>(gy) * static_cast<size_t>(n) + gx] : kCold;
    }
    // Every thread reads cells other threads loaded.
    __syncthreads();]]
  REPLACE [[    // Volatile: the poison must reach shared memory, not be dropped as a dead store.
    for (int s = self; s < kSharedCells; s += threads) static_cast<volatile float*>(&apron[0][0])[s] = nanf("");
    if (self >= 32) {
        const long long start = clock64();
        while (clock64() - start < 200000) {
        }
    }
    for (int s = self; s < kSharedCells; s += threads) {
        const int ay = s / kSharedX;
        const int ax = s % kSharedX;
        const int gy = originRow - kHalo + ay;
        const int gx = originCol - kHalo + ax;
        const bool onGrid = gx >= 0 && gx < n && gy >= 0 && gy < n;
        apron[ay][ax] = onGrid ? in[static_cast<size_t>(gy) * static_cast<size_t>(n) + gx] : kCold;
    }
    // (no barrier)]]
  FAILS 34.stencil CASES tiled_course_2048 tiled_seeded_517
  EXPECT [[heatStepTiled wrong after 4 steps at row [0-9]+, col [0-9]+: got (-?nan|-?inf|[-+.e0-9]+), want [-+.e0-9]+]])

grading_plant(apron_past_buffer
  WHAT "apron cells off the grid are not loaded as cold: below the last row the fill reads past the grid, into the runner's unmapped guard page"
  EDIT solution/heat_tiled.cu
  FIND [[        const bool onGrid = gx >= 0 && gx < n && gy >= 0 && gy < n;
        apron[ay][ax] = onGrid ? in[static_cast<size_t>(gy) * static_cast<size_t>(n) + gx] : kCold;]]
  REPLACE [[        apron[ay][ax] = in[static_cast<size_t>(gy) * static_cast<size_t>(n) + gx];  // no check: reads past the grid]]
  # 131: the interior (129) is one row past whole tile rows, so the last
  # tiles' aprons reach 7 rows below the grid. 34 (whole tiles) and 202
  # (whole tile rows; the last tile column reads 23 floats past the end, into
  # the guard words, and never uses them) show nothing.
  FAILS 34.stencil CASES tiled_seeded_131
  EXPECT [[CUDA error in heatStepTiled step 1 of 4 at r = 0\.24: cudaError(IllegalAddress|InvalidAddressSpace|LaunchFailure)]]
  PASSES 34.stencil@tiled_seeded_34 34.stencil@tiled_seeded_202)

grading_plant(writes_ring
  WHAT "the output guard is one past the interior: the last tiles' spare threads write the far ring (right column, bottom row)"
  EDIT solution/heat_tiled.cu
  FIND [[    if (col >= n - 1 || row >= n - 1) return;]]
  REPLACE [[    if (col >= n || row >= n) return;  // one past: the ring is Dirichlet]]
  # Only sizes whose interior is not whole tiles have threads on the far ring.
  FAILS 34.ring CASES tiled_seeded_131 tiled_course_2048
  EXPECT [[heatStepTiled moved a boundary cell after 4 steps: index [0-9]+ \(row [0-9]+, col [0-9]+\): got [-+.e0-9]+, want [-+.e0-9]+]]
  PASSES 34.ring@tiled_seeded_34)

grading_plant(tiles_rounded_down
  WHAT "the launch counts tiles with a plain division: the last, partial tiles are never computed"
  EDIT solution/heat_tiled.cu
  FIND [[    heatStepTiled<<<stencilGrid(n), stencilBlock()>>>(in, out, n, r);]]
  REPLACE [[    heatStepTiled<<<dim3((n - 2) / kTileX, (n - 2) / kTileY), stencilBlock()>>>(in, out, n, r);]]
  # Their cells keep the runner's poison (131: column 129 and row 129, 257
  # cells), which spreads one cell a step into the computed ones.
  FAILS 34.stencil CASES tiled_seeded_131
  EXPECT [[heatStepTiled wrong after 4 steps at row 1, col 126: got [-+.e0-9]+, want [-+.e0-9]+; 257 cells were never written \(still the runner's poison\), the first at row 1, col 129]]
  LARGE_COUNTEREXAMPLE "the partial tile is lost the same way only after a whole one: an interior of 33 or more (side 35, which the shrinker finds); below 32 no block is launched at all"
  PASSES 34.stencil@tiled_seeded_34)

grading_plant(copy_back_writes
  WHAT "the copy-back has its arguments the wrong way round: it uploads the (zeroed) host snapshot over the live device grid"
  EDIT heat_pingpong.cu
  FIND [[            CUDA_TRY(cudaMemcpy(hostSnapshot, cur, bytes, cudaMemcpyDeviceToHost));]]
  REPLACE [[            CUDA_TRY(cudaMemcpy(cur, hostSnapshot, bytes, cudaMemcpyHostToDevice));]]
  # After the last copy the whole grid is 0: the hot corner is the first difference.
  FAILS 34.copy_policy CASES tiled_course_2048
  EXPECT [[copy policy changed the answer at index 0 \(row 0, col 0\): 0 with the grid copied back every 100 steps, 1 never copied back]]
  PASSES 34.stencil@tiled_course_2048)

grading_plant(clamp
  WHAT "a correct stencil whose output is clamped to [0, 1]: harmless at r <= 1/4, where the exact values stay in [0, 1], but it hides the growth past the bound"
  EDIT solution/heat_tiled.cu
  FIND [[    out[static_cast<size_t>(row) * static_cast<size_t>(n) + col] = centre + r * (around - 4.0f * centre);]]
  REPLACE [[    out[static_cast<size_t>(row) * static_cast<size_t>(n) + col] =
        fminf(fmaxf(centre + r * (around - 4.0f * centre), 0.0f), 1.0f);]]
  FAILS 34.unstable CASES tiled_course_2048 tiled_seeded_517
  EXPECT [[no growth past the bound at r = 0\.260: max abs\(u\) is 1 after 400 steps, not above the initial max 1; a correct step multiplies the checkerboard by \|1 - 8r\| = 1\.080 every step]]
  PASSES 34.max_principle 34.stencil@tiled_course_2048 34.stencil@tiled_seeded_517)

grading_plant(index_in_float
  WHAT "the output cell's flat index computed in float: exact while n * n stays under 2^24 (every grid up to 4096), rounded to the wrong cell on the largest grid the runner accepts"
  EDIT solution/heat_tiled.cu
  FIND [[    out[static_cast<size_t>(row) * static_cast<size_t>(n) + col] = centre + r * (around - 4.0f * centre);]]
  REPLACE [[    out[static_cast<size_t>(static_cast<float>(row) * static_cast<float>(n) + static_cast<float>(col))] =
        centre + r * (around - 4.0f * centre);  // planted: index math in float]]
  FAILS 34.stencil CASES tiled_seeded_8192
  EXPECT [[heatStepTiled wrong after 4 steps at row [0-9]+, col [0-9]+]]
  LARGE_COUNTEREXAMPLE "float holds every flat index below 2^24: only a grid past 4096 on a side goes wrong"
  PASSES 34.stencil@tiled_seeded_2048)

grading_plant(tile_row_in_float
  WHAT "the tiles numbered along the rows by one block index, the tile row found with the float reciprocal of the tile count per row: exact for 1, 3, 5, 7 and 17 tiles a row and the powers of two, off by one row at some multiples of 41 (n = 1313), where those tiles are never computed"
  EDIT solution/heat_tiled.cu
  FIND [[    const int originCol = static_cast<int>(blockIdx.x) * kTileX + 1;
    const int originRow = static_cast<int>(blockIdx.y) * kTileY + 1;]]
  REPLACE [[    // planted: one block index for every tile, its row by a float reciprocal
    // (round to nearest, as 1.0f / x and a product are by default).
    const int tilesPerRow = (n - 2 + kTileX - 1) / kTileX;
    const float perRow = __frcp_rn(static_cast<float>(tilesPerRow));
    const int tileRow = static_cast<int>(__fmul_rn(static_cast<float>(blockIdx.x), perRow));
    const int tileCol = static_cast<int>(blockIdx.x) - tileRow * tilesPerRow;  // past the last when the row is one short
    const int originCol = tileCol * kTileX + 1;
    const int originRow = tileRow * kTileY + 1;]]
  EDIT solution/heat_tiled.cu
  FIND [[    heatStepTiled<<<stencilGrid(n), stencilBlock()>>>(in, out, n, r);]]
  REPLACE [[    const dim3 tiles = stencilGrid(n);
    heatStepTiled<<<tiles.x * tiles.y, stencilBlock()>>>(in, out, n, r);  // planted: the tiles in one row of blocks]]
  # 41 tiles a row, 164 rows: 55 block numbers (41, 82, 164, ...) fall a tile
  # row short, land past the last column and compute nothing, so 55 tiles of
  # the first column (8 x 32 cells each) keep the runner's poison; it spreads
  # a cell a step, so after 4 steps the first wrong cell is 3 rows above the
  # first lost tile (rows 9 .. 16). Every other graded size has 1, 3, 5, 7,
  # 17, 64 or 256 tiles a row, whose reciprocals give every block its own row
  # (8192's 256 included, a power of two, too large to list here cheaply).
  FAILS 34.stencil CASES tiled_seeded_1313
  EXPECT [[heatStepTiled wrong after 4 steps at row 6, col 1: got [-+.e0-9]+, want [-+.e0-9]+; 14080 cells were never written \(still the runner's poison\), the first at row 9, col 1]]
  LARGE_COUNTEREXAMPLE "only 41 or more tiles a row (a side of 1313 and up) send a block to the wrong tile row"
  PASSES 34.ring 34.stencil@tiled_course_2048,tiled_seeded_131,tiled_seeded_202,tiled_seeded_517,tiled_hand_made_97)
