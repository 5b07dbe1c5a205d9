#pragma once
// Every timed run must do its work. Timed runs go back to back, so a
// submission could compute one and hand its output back, or something
// derived from it, on every later run. So each timed run has buffers of its
// own and an input of its own, made on the device from a key the grader
// sends, none derived from another's; after the run, outside its events,
// the day compares its output with the course's answer to the same input,
// made in scratch, and the grader reads the first differing index per run.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace grading {

class RunAnswerCheck {
public:
    explicit RunAnswerCheck(int runs);
    ~RunAnswerCheck();
    RunAnswerCheck(const RunAnswerCheck&) = delete;
    RunAnswerCheck& operator=(const RunAnswerCheck&) = delete;

    // Enqueued on `stream`: the first index where got and want (n each)
    // differ by more than tolerance x max(1, |want|) is kept for `run` (a
    // value that is not a number always differs; tolerance 0: bit for bit).
    void compare(int run, const float* got, const float* want, size_t n, float tolerance, cudaStream_t stream);
    // 32-bit words (ints, checksums), bit for bit.
    void compare(int run, const unsigned* got, const unsigned* want, size_t n, cudaStream_t stream);
    void compare(int run, const int* got, const int* want, size_t n, cudaStream_t stream) {
        compare(run, reinterpret_cast<const unsigned*>(got), reinterpret_cast<const unsigned*>(want), n, stream);
    }
    // Once the stream is done: per run, the first differing index, or -1.
    std::vector<int64_t> firstDifferences() const;

private:
    int runs_;
    unsigned long long* first_ = nullptr;
};

}  // namespace grading
