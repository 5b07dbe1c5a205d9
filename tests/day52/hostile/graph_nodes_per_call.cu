// fails: none
// passes: 52.diamond 52.stress 52.overlap
// A correct variant that builds each call's diamond as a CUDA graph node by
// node, not by capture: the upstream, four branches that depend on it and
// the join that depends on them, as kernel nodes with the course's shapes;
// instantiated, launched on s[0] (so done on s[0] is the diamond done) and
// let go. Node parameters live in a std::vector of std::array, so the
// file's own instantiations of both are sealed with it.
#include <array>
#include <vector>

#include "forkjoin.h"
#include "harness/cuda_check.h"

namespace day52 {
namespace {

// One kernel node's launch and the arguments its pointers point at.
struct GrindArgs {
    const float* in;
    float* out;
    float a, b;
    size_t n;
    int iters;
    std::array<void*, 6> pointers() { return {&in, &out, &a, &b, &n, &iters}; }
};

cudaGraphNode_t addKernel(cudaGraph_t graph, const void* kernel, int blocks, void** args,
                          const std::vector<cudaGraphNode_t>& after) {
    cudaKernelNodeParams params = {};
    params.func = const_cast<void*>(kernel);
    params.gridDim = dim3(blocks);
    params.blockDim = dim3(kThreadsPerBlock);
    params.kernelParams = args;
    cudaGraphNode_t node = nullptr;
    CUDA_TRY(cudaGraphAddKernelNode(&node, graph, after.data(), after.size(), &params));
    return node;
}

}  // namespace

void enqueueDiamond(const Diamond& d) {
    cudaGraph_t graph = nullptr;
    CUDA_TRY(cudaGraphCreate(&graph, 0));
    std::vector<GrindArgs> grinds;
    grinds.push_back({d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters});
    for (int j = 0; j < kBranches; ++j) grinds.push_back({d.d_mid, d.d_branch[j], kA, kBranchB[j], kElems, kIters});
    std::vector<std::array<void*, 6>> grindPointers;
    for (GrindArgs& g : grinds) grindPointers.push_back(g.pointers());

    const cudaGraphNode_t upstream =
        addKernel(graph, reinterpret_cast<const void*>(grindFma), kGrindBlocks, grindPointers[0].data(), {});
    std::vector<cudaGraphNode_t> branches;
    for (int j = 0; j < kBranches; ++j) {
        branches.push_back(addKernel(graph, reinterpret_cast<const void*>(grindFma), kGrindBlocks,
                                     grindPointers[1 + j].data(), {upstream}));
    }
    const float* b0 = d.d_branch[0];
    const float* b1 = d.d_branch[1];
    const float* b2 = d.d_branch[2];
    const float* b3 = d.d_branch[3];
    float* sum = d.d_out;
    size_t n = kElems;
    std::array<void*, 6> sumPointers = {&b0, &b1, &b2, &b3, &sum, &n};
    addKernel(graph, reinterpret_cast<const void*>(sumFour), kSumBlocks, sumPointers.data(), branches);

    cudaGraphExec_t exec = nullptr;
    CUDA_TRY(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_TRY(cudaGraphLaunch(exec, d.s[0]));
    CUDA_TRY(cudaGraphExecDestroy(exec));  // allowed once launched: the launch finishes first
    CUDA_TRY(cudaGraphDestroy(graph));
}

}  // namespace day52
