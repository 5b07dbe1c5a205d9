// The msw runner: the course's msw.cu as subcommands, linked with one set of
// kernels (reference, submission, stub or a planted bug), the reference host
// API and the fast reference. It reports what the searches returned; the
// grading process decides whether that is right.
//
//   find  --impl two_phase|fast --in CASES
//         CASES: n i64[C], seed i64[C] (u64 bits), plant_start i64[C + 1],
//         plant_index i64[] (case k plants at plant_index[plant_start[k],
//         plant_start[k + 1])), wrapper i32[C] (two_phase: also ask the
//         three-argument overload). Arrays come from harness/msw/msw_arrays.h.
//         result: got i64[C] (two_phase: par_find_mismatch(d_a, b,
//         d_large_block, n); fast: fast_find_mismatch), got_wrapper i64[C]
//         (two_phase: par_find_mismatch(a, b, n), -1 where not asked).
//   block --in NS (n i64[]): block_words i64[] = large_block_words(n),
//         chunk_words i64[] = sqrt_chunk_words(n).
//   empty --impl two_phase|fast: the n = 0 calls. result: got_wrapper,
//         got_block (two_phase) or got (fast); block_words =
//         large_block_words(0); alloc_null (1: alloc_large_block_to_device(0)
//         returned nullptr, -1: not called, the block was too large to try);
//         free_before / free_after (cudaMemGetInfo bytes, informational).
//   time  --impl I --n N --seed S --plant P (-1: none) --runs K
//         result: ms f32[K] (two_phase: the four-argument overload, b copied
//         from pinned host memory; fast: device arrays).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "harness/cuda_check.h"
#include "harness/event_timer.h"
#include "harness/guarded_buffer.h"
#include "harness/runner_main.h"
#include "msw.cuh"
#include "msw_arrays.h"
#include "msw_fast.cuh"

static_assert(std::is_same_v<uintmax_t, uint64_t>, "the generator's words are the API's words");

namespace {

using grading::GuardedBuffer;
using grading::InputError;
using grading::Record;
using grading::RunnerArgs;

constexpr uint64_t kMaxWords = uint64_t{1} << 27;  // 1 GiB per array
constexpr int64_t kEmptyAllocTryLimit = 1 << 20;   // words; beyond this `empty` will not allocate

enum class Impl { TwoPhase, Fast };

Impl parseImpl(const RunnerArgs& args) {
    const std::string& name = args.text("impl");
    if (name == "two_phase") return Impl::TwoPhase;
    if (name == "fast") return Impl::Fast;
    throw InputError("--impl wants two_phase or fast, got \"" + name + "\"");
}

uint64_t parseU64(const std::string& name, const std::string& text) {
    try {
        size_t used = 0;
        const unsigned long long v = std::stoull(text, &used, 0);
        if (used == text.size()) return v;
    } catch (const std::exception&) {
    }
    throw InputError("--" + name + " wants an unsigned integer, got \"" + text + "\"");
}

// Pinned host words: the overloads' host-to-device copies run at full speed.
class PinnedWords {
public:
    explicit PinnedWords(size_t n) {
        if (n > 0) CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&p_), n * sizeof(uint64_t)));
    }
    ~PinnedWords() {
        if (p_ != nullptr) cudaFreeHost(p_);
    }
    PinnedWords(const PinnedWords&) = delete;
    PinnedWords& operator=(const PinnedWords&) = delete;
    uint64_t* data() const { return p_; }
    uint64_t& operator[](size_t i) { return p_[i]; }

private:
    uint64_t* p_ = nullptr;
};

// Clears the launch hook however the command ends.
struct HookScope {
    explicit HookScope(std::function<void(const msw::LaunchEvent&)> hook) { msw::set_launch_hook(std::move(hook)); }
    ~HookScope() { msw::set_launch_hook(nullptr); }
};

struct Case {
    uint64_t n = 0;
    uint64_t seed = 0;
    std::vector<uint64_t> planted;
    bool wrapper = false;
};

std::vector<Case> readCases(const Record& in) {
    const auto ns = in.int64s("n");
    const auto seeds = in.int64s("seed");
    const auto starts = in.int64s("plant_start");
    const auto indices = in.int64s("plant_index");
    if (!ns || !seeds || !starts || !indices) {
        throw InputError("find wants n, seed, plant_start and plant_index in --in");
    }
    std::vector<int32_t> wrapper;
    if (in.has("wrapper")) wrapper = in.ints("wrapper").value();
    const size_t count = ns->size();
    if (seeds->size() != count || starts->size() != count + 1 || (!wrapper.empty() && wrapper.size() != count) ||
        starts->front() != 0 || starts->back() != static_cast<int64_t>(indices->size())) {
        throw InputError("find: n, seed, plant_start, plant_index and wrapper do not describe the same cases");
    }
    std::vector<Case> cases(count);
    for (size_t k = 0; k < count; ++k) {
        Case& c = cases[k];
        if ((*ns)[k] < 1 || static_cast<uint64_t>((*ns)[k]) > kMaxWords) {
            throw InputError("find: case " + std::to_string(k) + " has n = " + std::to_string((*ns)[k]) +
                             "; find takes 1 <= n <= 2^27 (n = 0 is the empty subcommand)");
        }
        c.n = static_cast<uint64_t>((*ns)[k]);
        c.seed = static_cast<uint64_t>((*seeds)[k]);
        c.wrapper = !wrapper.empty() && wrapper[k] != 0;
        if ((*starts)[k + 1] < (*starts)[k]) throw InputError("find: plant_start is not increasing");
        for (int64_t j = (*starts)[k]; j < (*starts)[k + 1]; ++j) {
            const int64_t i = (*indices)[j];
            if (i < 0 || static_cast<uint64_t>(i) >= c.n) {
                throw InputError("find: case " + std::to_string(k) + " plants at " + std::to_string(i) +
                                 ", outside 0.." + std::to_string(c.n - 1));
            }
            c.planted.push_back(static_cast<uint64_t>(i));
        }
    }
    return cases;
}

std::string caseLabel(size_t k, size_t count, uint64_t n) {
    return "case " + std::to_string(k) + " of " + std::to_string(count) + ", n = " + std::to_string(n);
}

// Runs cases [begin, end), all with the same n and seed.
void findTwoPhase(const std::vector<Case>& cases, size_t begin, size_t end, std::vector<int64_t>& got,
                  std::vector<int64_t>& gotWrapper) {
    const uint64_t n = cases[begin].n;
    const uint64_t seed = cases[begin].seed;
    PinnedWords a(n);
    PinnedWords b(n);
    msw::arrays::fill(a.data(), n, seed);
    std::copy(a.data(), a.data() + n, b.data());
    GuardedBuffer<uintmax_t> dA("d_a", n);
    dA.upload(a.data(), n);
    GuardedBuffer<uintmax_t> block("d_large_block", large_block_words(n));
    grading::GuardSet guards;
    guards.add(dA);
    guards.add(block);

    std::string where;
    HookScope hook([&](const msw::LaunchEvent& e) {
        const std::string launch = std::string(e.kernel) + " (" + e.step + ", " + std::to_string(e.count) +
                                   " elements) in " + where;
        if (!e.done) {
            grading::breadcrumb(launch);
        } else {
            grading::checkLaunch(launch);
            guards.check(launch);
        }
    });
    for (size_t k = begin; k < end; ++k) {
        for (uint64_t i : cases[k].planted) b[i] = msw::arrays::plantedWord(seed, i);
        where = "par_find_mismatch(d_a, b, d_large_block, n), " + caseLabel(k, cases.size(), n);
        grading::breadcrumb(where);
        got[k] = static_cast<int64_t>(par_find_mismatch(dA.data(), b.data(), block.data(), n));
        grading::checkLaunch(where);
        guards.check(where);
        if (cases[k].wrapper) {
            where = "par_find_mismatch(a, b, n), " + caseLabel(k, cases.size(), n);
            grading::breadcrumb(where);
            gotWrapper[k] = static_cast<int64_t>(par_find_mismatch(a.data(), b.data(), n));
            grading::checkLaunch(where);
        }
        for (uint64_t i : cases[k].planted) b[i] = a[i];
    }
}

void writeWord(uintmax_t* d, uint64_t value) {
    CUDA_TRY(cudaMemcpy(d, &value, sizeof value, cudaMemcpyHostToDevice));
}

void findFast(const std::vector<Case>& cases, size_t begin, size_t end, std::vector<int64_t>& got) {
    const uint64_t n = cases[begin].n;
    const uint64_t seed = cases[begin].seed;
    std::vector<uint64_t> a(n);
    msw::arrays::fill(a.data(), n, seed);
    GuardedBuffer<uintmax_t> dA("d_a", n);
    GuardedBuffer<uintmax_t> dB("d_b", n);
    dA.upload(a.data(), n);
    dB.upload(a.data(), n);
    grading::GuardSet guards;
    guards.add(dA);
    guards.add(dB);
    for (size_t k = begin; k < end; ++k) {
        for (uint64_t i : cases[k].planted) writeWord(dB.data() + i, msw::arrays::plantedWord(seed, i));
        const std::string where = "fast_find_mismatch (firstMismatchKernel), " + caseLabel(k, cases.size(), n);
        grading::breadcrumb(where);
        got[k] = static_cast<int64_t>(fast_find_mismatch(dA.data(), dB.data(), n));
        grading::checkLaunch(where);
        guards.check(where);
        for (uint64_t i : cases[k].planted) writeWord(dB.data() + i, a[i]);
    }
}

void findCommand(const RunnerArgs& args, Record& result) {
    const Impl impl = parseImpl(args);
    const std::vector<Case> cases = readCases(args.input());
    std::vector<int64_t> got(cases.size(), -1);
    std::vector<int64_t> gotWrapper(cases.size(), -1);
    for (size_t begin = 0; begin < cases.size();) {
        size_t end = begin + 1;
        while (end < cases.size() && cases[end].n == cases[begin].n && cases[end].seed == cases[begin].seed) ++end;
        if (impl == Impl::TwoPhase) {
            findTwoPhase(cases, begin, end, got, gotWrapper);
        } else {
            findFast(cases, begin, end, got);
        }
        begin = end;
    }
    result.putInt64s("got", got);
    if (impl == Impl::TwoPhase) result.putInt64s("got_wrapper", gotWrapper);
}

void blockCommand(const RunnerArgs& args, Record& result) {
    const auto ns = args.input().int64s("n");
    if (!ns) throw InputError("block wants n i64[] in --in");
    std::vector<int64_t> words;
    std::vector<int64_t> chunks;
    for (int64_t n : *ns) {
        if (n < 0) throw InputError("block: n = " + std::to_string(n) + " is negative");
        words.push_back(static_cast<int64_t>(large_block_words(static_cast<size_t>(n))));
        chunks.push_back(static_cast<int64_t>(sqrt_chunk_words(static_cast<size_t>(n))));
    }
    result.putInt64s("block_words", words);
    result.putInt64s("chunk_words", chunks);
}

int64_t freeBytes() {
    size_t freeB = 0;
    size_t total = 0;
    CUDA_TRY(cudaMemGetInfo(&freeB, &total));
    return static_cast<int64_t>(freeB);
}

void emptyCommand(const RunnerArgs& args, Record& result) {
    const Impl impl = parseImpl(args);
    CUDA_TRY(cudaFree(nullptr));  // the context exists before the first reading
    const int64_t before = freeBytes();
    // Zero-length device buffers still carry guard words: n = 0 must touch nothing.
    GuardedBuffer<uintmax_t> dA("d_a", 0);
    GuardedBuffer<uintmax_t> other(impl == Impl::TwoPhase ? "d_large_block" : "d_b", 0);
    grading::GuardSet guards;
    guards.add(dA);
    guards.add(other);
    const uint64_t hostWord[1] = {0};
    if (impl == Impl::TwoPhase) {
        grading::breadcrumb("par_find_mismatch(a, b, n) with n = 0");
        result.putInt("got_wrapper", static_cast<int64_t>(par_find_mismatch(hostWord, hostWord, 0)));
        grading::checkLaunch("par_find_mismatch(a, b, n) with n = 0");
        grading::breadcrumb("par_find_mismatch(d_a, b, d_large_block, n) with n = 0");
        result.putInt("got_block", static_cast<int64_t>(par_find_mismatch(dA.data(), hostWord, other.data(), 0)));
        grading::checkLaunch("par_find_mismatch(d_a, b, d_large_block, n) with n = 0");
        guards.check("par_find_mismatch with n = 0");
        const int64_t words = static_cast<int64_t>(large_block_words(0));
        result.putInt("block_words", words);
        if (words >= 0 && words <= kEmptyAllocTryLimit) {
            grading::breadcrumb("alloc_large_block_to_device(0)");
            const msw::DeviceWords blockFor0(alloc_large_block_to_device(0));
            result.putInt("alloc_null", blockFor0 ? 0 : 1);
        } else {
            result.putInt("alloc_null", -1);
        }
    } else {
        grading::breadcrumb("fast_find_mismatch with n = 0");
        result.putInt("got", static_cast<int64_t>(fast_find_mismatch(dA.data(), other.data(), 0)));
        grading::checkLaunch("fast_find_mismatch with n = 0");
        guards.check("fast_find_mismatch with n = 0");
    }
    result.putInt("free_before", before);
    result.putInt("free_after", freeBytes());
}

void timeCommand(const RunnerArgs& args, Record& result) {
    const Impl impl = parseImpl(args);
    const uint64_t n = parseU64("n", args.text("n"));
    const uint64_t seed = parseU64("seed", args.text("seed"));
    const int plant = args.integer("plant", -1);
    const int runs = args.integer("runs", 10);
    if (n < 1 || n > kMaxWords) throw InputError("time takes 1 <= n <= 2^27");
    if (plant >= 0 && static_cast<uint64_t>(plant) >= n) throw InputError("time: --plant is outside the array");
    if (runs < 1 || runs > 1000) throw InputError("time: --runs wants 1..1000");
    PinnedWords a(n);
    PinnedWords b(n);
    msw::arrays::fill(a.data(), n, seed);
    std::copy(a.data(), a.data() + n, b.data());
    if (plant >= 0) b[plant] = msw::arrays::plantedWord(seed, plant);
    GuardedBuffer<uintmax_t> dA("d_a", n);
    dA.upload(a.data(), n);
    std::vector<float> ms;
    if (impl == Impl::TwoPhase) {
        GuardedBuffer<uintmax_t> block("d_large_block", large_block_words(n));
        const std::string what = "timing par_find_mismatch(d_a, b, d_large_block, n), n = " + std::to_string(n);
        grading::breadcrumb(what);
        ms = grading::timeRuns([&] { par_find_mismatch(dA.data(), b.data(), block.data(), n); }, what, 2, runs)
                 .samplesMs;
    } else {
        GuardedBuffer<uintmax_t> dB("d_b", n);
        dB.upload(b.data(), n);
        const std::string what = "timing fast_find_mismatch, n = " + std::to_string(n);
        grading::breadcrumb(what);
        ms = grading::timeRuns([&] { fast_find_mismatch(dA.data(), dB.data(), n); }, what, 2, runs).samplesMs;
    }
    result.putFloats("ms", ms);
}

}  // namespace

int main(int argc, char** argv) {
    return grading::runnerMain(
        argc, argv, {{"find", findCommand}, {"block", blockCommand}, {"empty", emptyCommand}, {"time", timeCommand}});
}
