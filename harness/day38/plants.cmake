# Day 38's planted bugs: each pitfall the exercise and grading.md name, as an
# edit of the course's code or the solution, held to the gate that must catch
# it on the graded inputs (see grading_plant in cmake/Grading.cmake).
# Instructor-only: the student kit leaves this file out.

grading_plant(plain_claim
  WHAT "the thread mapping claims with a plain test instead of atomicCAS: racing threads all append"
  EDIT thread_mapping.cu
  FIND [[        claimVertex(colIndices[e], level, dist, nextFrontier, nextSize);]]
  REPLACE [[        const int v = colIndices[e];
        if (dist[v] < 0) {  // the test and the write are two steps
            dist[v] = level + 1;
            nextFrontier[atomicAdd(nextSize, 1u)] = v;
        }]]
  FAILS 38.frontier_total CASES thread_bipartite
  EXPECT [[frontiers held [0-9]+ vertices, want 513 \(the vertices reached\): a vertex was enqueued more than once]]
  LARGE_COUNTEREXAMPLE "a race between threads claiming one vertex, which a graph of a few vertices rarely shows"
  PASSES 38.distances)

grading_plant(append_past_end
  WHAT "the thread mapping appends one slot past the one atomicAdd returned"
  EDIT thread_mapping.cu
  FIND [[        claimVertex(colIndices[e], level, dist, nextFrontier, nextSize);]]
  REPLACE [[        const int v = colIndices[e];
        if (atomicCAS(&dist[v], -1, level + 1) == -1) nextFrontier[atomicAdd(nextSize, 1u) + 1] = v;]]
  FAILS 38.distances CASES thread_word_graph
  EXPECT [[after expandThreadPerVertex \(thread mapping\) at level 0: buffer nextFrontier was written past its live end, at index [0-9]+ \([0-9]+ entries are live\)]])

grading_plant(shuffle_in_guard
  WHAT "the warp walk's shuffle ladder moved inside the per-lane loop, where not every lane reaches it"
  EDIT warp_mapping.cu
  FIND [[                acc += static_cast<unsigned int>(colIndices[e]) ^ static_cast<unsigned int>(r);
            }
        }
    }
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
        acc += __shfl_down_sync(0xffffffffu, acc, offset);
    }]]
  REPLACE [[                acc += static_cast<unsigned int>(colIndices[e]) ^ static_cast<unsigned int>(r);
                for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {  // under the guard
                    acc += __shfl_down_sync(0xffffffffu, acc, offset);
                }
            }
        }
    }]]
  FAILS 38.walk CASES warp_word_graph
  EXPECT [[frontier [0-9]+: walk wrong at slot [0-9]+, vertex [0-9]+ \([a-z]+\) of degree [0-9]+: got [0-9]+, want [0-9]+]]
  PASSES 38.distances)

grading_plant(off_by_one_search
  WHAT "the owner search compares with < where the rule is the last start <= e"
  EDIT solution/edge_mapping.cu
  FIND [[        if (edgeStart[mid] <= e) {]]
  REPLACE [[        if (edgeStart[mid] < e) {]]
  # A random tree: each vertex's first CSR neighbour is its parent, so the
  # edge handed to the previous slot claims a parent early. Most seeds give a
  # wrong distance; on some the misread slot lies outside the frontier and
  # the kernel faults (seen on the H200 with GRADING_SEED=1032135277). A grid
  # hides it: every vertex has two ways in.
  FAILS 38.distances CASES edge_components
  EXPECT [[vertex [0-9]+ \(v[0-9]+\): got -?[0-9]+, want -?[0-9]+|expandEdgePerThread \(edge mapping\) at level [0-9]+: cudaErrorIllegalAddress]])

grading_plant(first_of_tied_starts
  WHAT "the owner search returns the first of several equal starts: a zero-degree vertex owns its neighbour's edges"
  EDIT solution/edge_mapping.cu
  FIND [[    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (edgeStart[mid] <= e) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;]]
  REPLACE [[    while (lo < hi) {  // the first entry >= e, then one back if it is past e
        const int mid = lo + (hi - lo) / 2;
        if (edgeStart[mid] < e) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return edgeStart[lo] > e ? lo - 1 : lo;]]
  # A search's frontiers hold no zero-degree vertex next to others, so only
  # the single-level expansions of the graded set show it: the stolen edge
  # claims a wrong vertex, or reads past the graph and faults.
  FAILS 38.distances CASES expand_edge_components expand_edge_rmat
  EXPECT [[^edge mapping, one level with zero-degree vertices in the frontier, on (components|rmat) .*(one level from a frontier of [0-9]+ at level [0-9]+: vertex [0-9]+ \(v[0-9]+\): got -?[0-9]+, want -?[0-9]+|CUDA error in expandEdgePerThread \(edge mapping\) at level [0-9]+: cudaError(IllegalAddress|InvalidAddressSpace))]]
  PASSES 38.distances@edge_word_graph,edge_rmat,edge_components,edge_grid)

grading_plant(slow_walk
  WHAT "the walk by one thread per frontier vertex, its edges in a serial loop: right, and as slow as the thread mapping on the hub's level"
  EDIT solution/edge_mapping.cu
  FIND [=[    const size_t e = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (e >= static_cast<size_t>(totalEdges)) return;
    const int i = ownerOfEdge(edgeStart, frontierSize, static_cast<int>(e));
    const unsigned int v = static_cast<unsigned int>(
        colIndices[rowOffsets[frontier[i]] + static_cast<int>(e) - edgeStart[i]]);
    unsigned int acc = 0u;
    for (int r = 0; r < repeats; ++r) acc += v ^ static_cast<unsigned int>(r);
    atomicAdd(&out[i], acc);]=]
  REPLACE [=[    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i >= static_cast<size_t>(frontierSize)) return;
    const int u = frontier[i];
    unsigned int acc = 0u;
    for (int k = rowOffsets[u]; k < rowOffsets[u + 1]; ++k) {
        const unsigned int v = static_cast<unsigned int>(colIndices[k]);
        for (int r = 0; r < repeats; ++r) acc += v ^ static_cast<unsigned int>(r);
    }
    atomicAdd(&out[i], acc);]=]
  EDIT solution/edge_mapping.cu
  FIND [=[    walkEdgePerThread<<<blocksFor(totalEdges, kThreadsPerBlock), kThreadsPerBlock>>>(]=]
  REPLACE [=[    walkEdgePerThread<<<blocksFor(frontierSize, kThreadsPerBlock), kThreadsPerBlock>>>(]=]
  FAILS 38.speed SCORE_BELOW 0.5
  EXPECT [=[timed interleaved: [0-9.]+x, [0-9]+% of the points]=]
  PASSES 38.walk)

grading_plant(edge_grid_capped
  WHAT "the edge expansion launched on at most 8192 blocks (2^21 threads) with one edge a thread and no grid-stride loop: every graph but the wide one fits, and there the edges past 2^21 are never walked"
  EDIT solution/edge_mapping.cu
  FIND [[    bfsExpandEdgePerThread<<<blocksFor(totalEdges, kThreadsPerBlock), kThreadsPerBlock>>>(]]
  REPLACE [[    const int blocks = blocksFor(totalEdges, kThreadsPerBlock);  // planted: capped, no grid-stride loop
    bfsExpandEdgePerThread<<<blocks < 8192 ? blocks : 8192, kThreadsPerBlock>>>(]]
  FAILS 38.distances CASES edge_wide
  EXPECT [[^edge mapping on wide: vertex [0-9]+ \(v[0-9]+\): got -1, want 2]]
  LARGE_COUNTEREXAMPLE "only a level of more than 2^21 edges is cut short"
  PASSES 38.distances@edge_rmat,edge_star,edge_grid,edge_word_graph)

grading_plant(frontier_size_16_bits
  WHAT "the edge expansion keeps the frontier's size in 16 bits: every frontier up to 65,535 vertices is whole, and the wide graph's level of 70,000 expands only its first 70,000 - 65,536 vertices"
  EDIT solution/edge_mapping.cu
  FIND [[void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {]]
  REPLACE [[void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierCount, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    const unsigned short frontierSize = static_cast<unsigned short>(frontierCount);  // planted: 16 bits]]
  # Only the wide graph has a frontier over 65,535 vertices (the star's is
  # 40,000, R-MAT's at most 32,768): the leaves of the A vertices past the
  # first 4,464 slots are never reached.
  FAILS 38.distances CASES edge_wide
  EXPECT [[^edge mapping on wide: vertex [0-9]+ \(v[0-9]+\): got -1, want 2]]
  LARGE_COUNTEREXAMPLE "only a frontier of more than 65,535 vertices is cut short"
  PASSES 38.distances@edge_rmat,edge_star,edge_grid,edge_word_graph,expand_edge_rmat 38.walk@edge_wide)

grading_plant(walk_grid_capped
  WHAT "the edge walk launched on at most 8192 blocks (2^21 threads) with one edge a thread and no grid-stride loop: every walk but the wide graph's leaves (2,170,000 edges) fits, and there the edges past 2^21 are never walked"
  EDIT solution/edge_mapping.cu
  FIND [=[    walkEdgePerThread<<<blocksFor(totalEdges, kThreadsPerBlock), kThreadsPerBlock>>>(]=]
  REPLACE [=[    const int blocks = blocksFor(totalEdges, kThreadsPerBlock);  // planted: capped, no grid-stride loop
    walkEdgePerThread<<<blocks < 8192 ? blocks : 8192, kThreadsPerBlock>>>(]=]
  # Frontier 1 of the wide graph's walk is its widest level, the leaves:
  # the last 72,848 of them keep the 0 the launcher zeroed.
  FAILS 38.walk CASES edge_wide
  EXPECT [[^edge mapping, three frontiers of wide .*frontier 1: walk wrong at slot [0-9]+, vertex [0-9]+ \(v[0-9]+\) of degree 1: got 0, want [0-9]+]]
  LARGE_COUNTEREXAMPLE "only a walk of more than 2^21 edges is cut short"
  PASSES 38.walk@edge_rmat,edge_star,edge_grid,edge_word_graph 38.distances@edge_wide)
