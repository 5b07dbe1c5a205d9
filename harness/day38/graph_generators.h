#pragma once
// Seeded graphs a submission has never seen, each stressing one thing: the
// number of levels, one huge hub, scale-free skew, a large diameter, isolated
// vertices. The same seed gives the same graph on every machine.
#include <cstdint>
#include <string>

#include "graph.h"
#include "harness/splitmix64.h"

namespace grading {

Graph chainGraph(int vertices);               // 0 - 1 - ... - (n-1)
Graph starGraph(int leaves);                  // hub 0 joined to 1..leaves
Graph gridGraph(int width, int height);       // 4-neighbour lattice, row-major ids
// Kronecker / R-MAT (Graph500's A = 0.57, B = C = 0.19), 2^scale vertices,
// edgeFactor * 2^scale draws, duplicates and self loops dropped, ids shuffled.
Graph rmatGraph(int scale, int edgeFactor, uint64_t seed);
// A few random trees and cycles of different sizes plus isolated vertices;
// vertex 0 is in the largest component.
Graph componentsGraph(uint64_t seed);
// Source 0 joined to side A; every A vertex joined to every B vertex, so a
// level's threads all race for the same neighbours.
Graph bipartiteGraph(int sideA, int sideB);
Graph singleVertexGraph();
// Source 0 joined to `wide` vertices, each of them to `fan` leaves of its
// own: level 1 holds `wide` vertices and level 2 is reached over wide * fan
// edges, each leaf by one edge only (so an edge left unwalked leaves a leaf
// unreached).
Graph wideGraph(int wide, int fan);

// The vertex of highest degree (lowest id on ties).
int highestDegreeVertex(const Graph& g);

}  // namespace grading
