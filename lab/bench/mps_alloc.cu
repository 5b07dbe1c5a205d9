// Allocates GiB of device memory in 1 GiB steps and says how far it got,
// then holds it for a moment: a client of the MPS limit experiment (lab/scripts/mps-limit.sh).
//   mps_alloc GIB [HOLD_SECONDS]
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
    const int wanted = argc > 1 ? std::atoi(argv[1]) : 1;
    const int hold = argc > 2 ? std::atoi(argv[2]) : 0;
    size_t freeBytes = 0, totalBytes = 0;
    if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) {
        std::printf("no context: %s\n", cudaGetErrorName(cudaGetLastError()));
        return 2;
    }
    std::vector<void*> held;
    cudaError_t last = cudaSuccess;
    for (int g = 0; g < wanted; ++g) {
        void* p = nullptr;
        last = cudaMalloc(&p, size_t(1) << 30);
        if (last != cudaSuccess) break;
        cudaMemset(p, 1, size_t(1) << 30);
        held.push_back(p);
    }
    std::printf("asked %d GiB, got %zu GiB (%s); the context saw %.1f of %.1f GiB free\n", wanted, held.size(),
                cudaGetErrorName(last), freeBytes / 1073741824.0, totalBytes / 1073741824.0);
    std::this_thread::sleep_for(std::chrono::seconds(hold));
    return held.size() == static_cast<size_t>(wanted) ? 0 : 1;
}
