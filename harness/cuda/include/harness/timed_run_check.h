#pragma once
// Every timed run must do its work. Timed runs go back to back on one input,
// so a submission could compute the first and hand back its output, or
// leave the last one's, on every later run. So each timed run gets its own
// input, a variant of run 0's that a correct kernel answers with the same
// variant of run 0's output, bit for bit: rotated by some words (for
// element-wise work) or scaled by a power of two (for linear work, which
// floating point scales exactly). Run i's output is compared with run 0's
// on the device, outside the timed events, so the runs stay back to back;
// the grader reads the first differing index per run and names the run.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "harness/run_variant.h"

namespace grading {

// to = the variant v of from (n words each, distinct buffers), on stream.
// Ints are only moved (v.scaleExponent must be 0).
void enqueueVariant(const float* from, float* to, size_t n, RunVariant v, cudaStream_t stream);
void enqueueVariant(const int* from, int* to, size_t n, RunVariant v, cudaStream_t stream);

// Run 0's output, kept on the device, against which every later run is compared.
class TimedRunCheck {
public:
    TimedRunCheck(size_t n, int runs);
    ~TimedRunCheck();
    TimedRunCheck(const TimedRunCheck&) = delete;
    TimedRunCheck& operator=(const TimedRunCheck&) = delete;

    // Enqueued after run `run`'s stop event on the run's stream: run 0's
    // output is kept, any later one compared with run 0's moved by `v`.
    void afterRun(int run, const float* out, RunVariant v, cudaStream_t stream);
    void afterRun(int run, const unsigned* out, RunVariant v, cudaStream_t stream);  // moved only
    // Once the stream is done: per run, the first index where its output
    // differs from what run 0's output predicts, or -1 (run 0: -1).
    std::vector<int64_t> firstDifferences() const;
    // Once the stream is done: run 0's output as it was kept.
    std::vector<float> firstOutput() const;
    std::vector<unsigned> firstWords() const;

private:
    void afterRunWords(int run, const unsigned* out, RunVariant v, cudaStream_t stream);

    size_t n_;
    int runs_;
    unsigned* kept_ = nullptr;  // 32-bit words, compared bit for bit
    unsigned long long* first_ = nullptr;  // per run; all bits set while nothing differs
};

// Timed runs on keyed inputs, each run's its own and none derived from
// another's (no answer cached from one run serves the next): after run i,
// its output is compared on the device with the course's answer to the
// same input, made in scratch outside the run's events; the grader reads
// the first differing index per run, as from TimedRunCheck.
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
