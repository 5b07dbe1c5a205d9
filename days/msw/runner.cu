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
//   time  --impl I --n N --seed S --plant P[,P...] (-1: none) --runs K
//         result: ms f32[P * K], the K runs of the first placement, then the
//         next (two_phase: the four-argument overload, b copied from pinned
//         host memory; fast: device arrays).
//
// Cost. The GPU is shared by many test processes, so every host wait can
// cost a time slice: `find` keeps them to what the searched API needs. The
// arrays are generated on the device once per (n, seed); between cases only
// the planted words change (on the host for b, by one small kernel for
// d_b). Guard words are checked by a kernel queued behind each launch that
// writes a flag into mapped host memory, read after the launch's own
// checkLaunch, so the check adds no wait; only damage costs the byte-exact
// GuardSet read-back that names it.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
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

// ---- the runner's own kernels (trusted: they touch only what they are given) ----

constexpr unsigned kOwnThreads = 256;

unsigned ownGrid(uint64_t count) {
    return static_cast<unsigned>(std::clamp<uint64_t>((count + kOwnThreads - 1) / kOwnThreads, 1, 4096));
}

__global__ void generateWordsKernel(uint64_t* out, uint64_t n, uint64_t seed) {
    const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
    for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        out[i] = msw::arrays::word(seed, i);
    }
}

// out[at[j]] for j < count becomes its planted word (planted) or its own word.
__global__ void setWordsKernel(uint64_t* out, const uint64_t* at, uint64_t count, uint64_t seed, bool planted) {
    const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
    for (uint64_t j = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < count; j += stride) {
        const uint64_t i = at[j];
        out[i] = planted ? msw::arrays::plantedWord(seed, i) : msw::arrays::word(seed, i);
    }
}

// The first array's n words (msw_arrays.h) into device memory. A few words
// are read back and compared with the host generator, which the grading
// side uses: the two must never drift apart.
void generate(uint64_t* d, uint64_t n, uint64_t seed) {
    generateWordsKernel<<<ownGrid(n), kOwnThreads>>>(d, n, seed);
    CUDA_TRY(cudaGetLastError());
    for (uint64_t i : {uint64_t{0}, n / 2, n - 1}) {
        uint64_t v = 0;
        CUDA_TRY(cudaMemcpy(&v, d + i, sizeof v, cudaMemcpyDeviceToHost));
        if (v != msw::arrays::word(seed, i)) {
            throw std::logic_error("msw runner: the device generator disagrees with the host one at word " +
                                   std::to_string(i));
        }
    }
}

void setWords(uint64_t* d, const uint64_t* dAt, uint64_t count, uint64_t seed, bool planted) {
    if (count == 0) return;
    setWordsKernel<<<ownGrid(count), kOwnThreads>>>(d, dAt, count, seed, planted);
    CUDA_TRY(cudaGetLastError());
}

constexpr int kMaxGuardZones = 8;
constexpr uint64_t kZoneWords = grading::GuardedBytes::kGuardBytes / sizeof(uint64_t);
static_assert(grading::GuardedBytes::kGuardBytes % sizeof(uint64_t) == 0, "guard zones are whole words");
constexpr uint64_t kGuardWord = 0x0101010101010101ull * grading::GuardedBytes::kGuardByte;

struct GuardZones {
    const uint64_t* zone[kMaxGuardZones];
    int count;
};

// *damaged = 1 when any word of the zones differs from the guard pattern.
__global__ void scanGuardsKernel(GuardZones zones, unsigned* damaged) {
    const uint64_t words = static_cast<uint64_t>(zones.count) * kZoneWords;
    for (uint64_t w = threadIdx.x; w < words; w += blockDim.x) {
        if (zones.zone[w / kZoneWords][w % kZoneWords] != kGuardWord) *damaged = 1;
    }
}

// A GuardSet whose check costs no extra wait (see the top of the file). The
// zones follow GuardedBytes' layout: kGuardBytes before the data and
// kGuardBytes after it; a scan that sees damage the read-back cannot find
// is reported as such, so a layout change cannot pass silently.
class GuardScan {
public:
    GuardScan() {
        CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&flag_), sizeof(unsigned), cudaHostAllocMapped));
        *flag_ = 0;
        CUDA_TRY(cudaHostGetDevicePointer(reinterpret_cast<void**>(&deviceFlag_), flag_, 0));
    }
    ~GuardScan() {
        if (flag_ != nullptr) cudaFreeHost(flag_);
    }
    GuardScan(const GuardScan&) = delete;
    GuardScan& operator=(const GuardScan&) = delete;

    template <typename T>
    void add(const GuardedBuffer<T>& b) {
        static_assert(sizeof(T) % sizeof(uint64_t) == 0, "the trailing zone must start on a word");
        if (zones_.count + 2 > kMaxGuardZones) throw std::logic_error("GuardScan: too many buffers");
        const auto* data = static_cast<const unsigned char*>(b.bytes());
        zones_.zone[zones_.count++] = reinterpret_cast<const uint64_t*>(data - grading::GuardedBytes::kGuardBytes);
        zones_.zone[zones_.count++] = reinterpret_cast<const uint64_t*>(data + b.count() * sizeof(T));
        guards_.add(b);
    }

    // Queues the scan behind everything queued so far, then checkLaunch(after)
    // (the one wait), then throws GuardViolation naming `after` on damage.
    void check(const std::string& after) {
        if (zones_.count > 0) scanGuardsKernel<<<1, kOwnThreads>>>(zones_, deviceFlag_);
        grading::checkLaunch(after);
        if (*static_cast<volatile unsigned*>(flag_) == 0) return;
        guards_.check(after);  // names the buffer and the first index written
        throw grading::GuardViolation("after " + after +
                                      ": a guard word changed (seen by the device scan, not by the read-back)");
    }

private:
    unsigned* flag_ = nullptr;
    unsigned* deviceFlag_ = nullptr;
    GuardZones zones_{};
    grading::GuardSet guards_;
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

// Runs cases [begin, end), all with the same n and seed. b lives on the
// host (the API copies it); a case plants its words there and restores them.
void findTwoPhase(const std::vector<Case>& cases, size_t begin, size_t end, std::vector<int64_t>& got,
                  std::vector<int64_t>& gotWrapper) {
    const uint64_t n = cases[begin].n;
    const uint64_t seed = cases[begin].seed;
    GuardedBuffer<uintmax_t> dA("d_a", n);
    GuardedBuffer<uintmax_t> block("d_large_block", large_block_words(n));
    GuardScan guards;
    guards.add(dA);
    guards.add(block);
    generate(dA.data(), n, seed);
    PinnedWords a(n);
    PinnedWords b(n);
    CUDA_TRY(cudaMemcpy(a.data(), dA.data(), n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    std::copy(a.data(), a.data() + n, b.data());
    guards.check("generating the arrays, n = " + std::to_string(n));

    std::string where;
    HookScope hook([&](const msw::LaunchEvent& e) {
        const std::string launch = std::string(e.kernel) + " (" + e.step + ", " + std::to_string(e.count) +
                                   " elements) in " + where;
        if (!e.done) {
            grading::breadcrumb(launch);
        } else {
            guards.check(launch);  // includes checkLaunch(launch)
        }
    });
    for (size_t k = begin; k < end; ++k) {
        for (uint64_t i : cases[k].planted) b[i] = msw::arrays::plantedWord(seed, i);
        where = "par_find_mismatch(d_a, b, d_large_block, n), " + caseLabel(k, cases.size(), n);
        grading::breadcrumb(where);
        got[k] = static_cast<int64_t>(par_find_mismatch(dA.data(), b.data(), block.data(), n));
        grading::checkLaunch(where);
        if (cases[k].wrapper) {
            where = "par_find_mismatch(a, b, n), " + caseLabel(k, cases.size(), n);
            grading::breadcrumb(where);
            gotWrapper[k] = static_cast<int64_t>(par_find_mismatch(a.data(), b.data(), n));
            grading::checkLaunch(where);
        }
        for (uint64_t i : cases[k].planted) b[i] = a[i];
    }
}

// Both arrays live on the device; the group's planted indices are uploaded
// once and a case plants (and later restores) its slice with one kernel.
void findFast(const std::vector<Case>& cases, size_t begin, size_t end, std::vector<int64_t>& got) {
    const uint64_t n = cases[begin].n;
    const uint64_t seed = cases[begin].seed;
    GuardedBuffer<uintmax_t> dA("d_a", n);
    GuardedBuffer<uintmax_t> dB("d_b", n);
    GuardScan guards;
    guards.add(dA);
    guards.add(dB);
    generate(dA.data(), n, seed);
    generate(dB.data(), n, seed);
    std::vector<uint64_t> at;
    std::vector<size_t> from;  // case k's indices: at[from[k - begin], from[k - begin + 1])
    for (size_t k = begin; k < end; ++k) {
        from.push_back(at.size());
        at.insert(at.end(), cases[k].planted.begin(), cases[k].planted.end());
    }
    from.push_back(at.size());
    const msw::DeviceWords dAt = msw::device_words(at.size());
    if (!at.empty()) CUDA_TRY(cudaMemcpy(dAt.get(), at.data(), at.size() * sizeof(uint64_t), cudaMemcpyHostToDevice));
    guards.check("generating the arrays, n = " + std::to_string(n));

    for (size_t k = begin; k < end; ++k) {
        const uint64_t* mine = dAt.get() + from[k - begin];
        const uint64_t count = from[k - begin + 1] - from[k - begin];
        setWords(dB.data(), mine, count, seed, true);
        const std::string where = "fast_find_mismatch (firstMismatchKernel), " + caseLabel(k, cases.size(), n);
        grading::breadcrumb(where);
        got[k] = static_cast<int64_t>(fast_find_mismatch(dA.data(), dB.data(), n));
        guards.check(where);
        setWords(dB.data(), mine, count, seed, false);
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

// "-1,8388608,1000": where each timed placement plants (-1: nowhere).
std::vector<int64_t> parsePlacements(const std::string& text, uint64_t n) {
    std::vector<int64_t> out;
    size_t pos = 0;
    for (;;) {
        const size_t comma = text.find(',', pos);
        const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        int64_t v = -2;
        try {
            size_t used = 0;
            v = std::stoll(item, &used, 0);
            if (used != item.size()) v = -2;
        } catch (const std::exception&) {
        }
        if (v < -1 || (v >= 0 && static_cast<uint64_t>(v) >= n)) {
            throw InputError("time: --plant wants indices below n or -1, separated by commas; got \"" + text + "\"");
        }
        out.push_back(v);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    if (out.size() > 16) throw InputError("time: at most 16 placements");
    return out;
}

void timeCommand(const RunnerArgs& args, Record& result) {
    const Impl impl = parseImpl(args);
    const uint64_t n = parseU64("n", args.text("n"));
    const uint64_t seed = parseU64("seed", args.text("seed"));
    const int runs = args.integer("runs", 10);
    if (n < 1 || n > kMaxWords) throw InputError("time takes 1 <= n <= 2^27");
    if (runs < 1 || runs > 1000) throw InputError("time: --runs wants 1..1000");
    const std::vector<int64_t> plants = parsePlacements(args.has("plant") ? args.text("plant") : "-1", n);
    GuardedBuffer<uintmax_t> dA("d_a", n);
    generate(dA.data(), n, seed);
    std::vector<float> ms;
    const auto keep = [&](const std::vector<float>& samples) { ms.insert(ms.end(), samples.begin(), samples.end()); };
    if (impl == Impl::TwoPhase) {
        PinnedWords b(n);
        CUDA_TRY(cudaMemcpy(b.data(), dA.data(), n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
        GuardedBuffer<uintmax_t> block("d_large_block", large_block_words(n));
        for (int64_t p : plants) {
            if (p >= 0) b[p] = msw::arrays::plantedWord(seed, p);
            const std::string what = "timing par_find_mismatch(d_a, b, d_large_block, n), n = " + std::to_string(n) +
                                     ", planted at " + std::to_string(p);
            grading::breadcrumb(what);
            keep(grading::timeRuns([&] { par_find_mismatch(dA.data(), b.data(), block.data(), n); }, what, 2, runs)
                     .samplesMs);
            if (p >= 0) b[p] = msw::arrays::word(seed, p);
        }
    } else {
        GuardedBuffer<uintmax_t> dB("d_b", n);
        generate(dB.data(), n, seed);
        for (int64_t p : plants) {
            const auto put = [&](uint64_t value) {
                CUDA_TRY(cudaMemcpy(dB.data() + p, &value, sizeof value, cudaMemcpyHostToDevice));
            };
            if (p >= 0) put(msw::arrays::plantedWord(seed, p));
            const std::string what = "timing fast_find_mismatch, n = " + std::to_string(n) + ", planted at " +
                                     std::to_string(p);
            grading::breadcrumb(what);
            keep(grading::timeRuns([&] { fast_find_mismatch(dA.data(), dB.data(), n); }, what, 2, runs).samplesMs);
            if (p >= 0) put(msw::arrays::word(seed, p));
        }
    }
    result.putFloats("ms", ms);
}

}  // namespace

int main(int argc, char** argv) {
    return grading::runnerMain(
        argc, argv, {{"find", findCommand}, {"block", blockCommand}, {"empty", emptyCommand}, {"time", timeCommand}});
}
