// Whether one client's fault reaches the clients beside it, with and without
// CUDA MPS (lab/scripts/mps-fault.sh).
//   mps_fault honest SECONDS   launch a small kernel and wait on it, over and
//                              over for SECONDS; print how many, and the
//                              first error
//   mps_fault fault DELAY_MS   after DELAY_MS, a kernel writes through a bad
//                              pointer; print what the wait returned
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

__global__ void touch(int* p) { p[threadIdx.x] += 1; }

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "mps_fault honest SECONDS | fault DELAY_MS\n");
        return 2;
    }
    int* buffer = nullptr;
    if (cudaMalloc(&buffer, 32 * sizeof(int)) != cudaSuccess) {
        std::printf("no context: %s\n", cudaGetErrorName(cudaGetLastError()));
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    if (std::strcmp(argv[1], "fault") == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(argv[2])));
        touch<<<1, 32>>>(reinterpret_cast<int*>(uintptr_t{0x10}));
        std::printf("fault: the wait returned %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        return 0;
    }
    const double seconds = std::atof(argv[2]);
    long rounds = 0;
    cudaError_t first = cudaSuccess;
    double failedAt = 0;
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
        touch<<<1, 32>>>(buffer);
        const cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            first = e;
            failedAt = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            break;
        }
        ++rounds;
    }
    if (first == cudaSuccess) std::printf("honest: %ld launches, no error\n", rounds);
    else std::printf("honest: %ld launches, then %s at %.2f s\n", rounds, cudaGetErrorName(first), failedAt);
    return first == cudaSuccess ? 0 : 1;
}
