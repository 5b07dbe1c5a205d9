#pragma once
// The runner protocol, typed. A day's protocol header (harness/<day>/protocol.h)
// declares each subcommand as a request and a result; each lists its fields
// once, in a static fields() that both sides visit:
//
//   struct ScaleResult {
//       std::vector<float> out;
//       double ms = 0;
//       template <class Self, class Visit>
//       static void fields(Self& s, Visit&& field) {
//           field("out", s.out);
//           field("ms", s.ms);
//       }
//   };
//   struct Scale {
//       static constexpr const char* kName = "scale";
//       using Request = ScaleRequest;
//       using Result = ScaleResult;
//   };
//
// The runner (runner_main.h: serve<Scale>) and the grader (runner_client.h:
// call<Scale>) both compile that header, so the record's field names, types and
// counts exist in one place: a field renamed or retyped on one side is renamed
// or retyped on both.
//
// A request field may carry its limits, checked where the request is
// decoded, so no runner writes its own range checks and a request out of
// range is refused naming the field, before any of the call's work:
//
//           field("repeats", s.repeats, protocol::Within<int32_t>{1, 1024});  // the value (each entry of a list)
//           field("runs", s.runs, protocol::Entries{1, 64});                   // how many entries a list holds
//           field("r", s.r, protocol::Finite{});                                // a float (each entry) finite
//           field("kernel", s.kernel, protocol::OneOf{{"global", "tiled"}});    // a word of a list
//
// A field may carry several, checked in turn: field("r", s.r, Entries{1, 8}, Finite{}).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "harness/expected.h"
#include "harness/record.h"

namespace grading::protocol {

// The values a number field, or each entry of a list field, may hold.
template <class T>
struct Within {
    T lowest;
    T highest;
};
// How many entries a list field (or characters a text field) may hold.
struct Entries {
    size_t fewest;
    size_t most;
};
// A floating-point field (each entry of a list) is a finite number.
struct Finite {};
// The words a text field may hold.
struct OneOf {
    std::vector<std::string> words;
};

namespace detail {

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

// A scalar travels as a one-element field of the vector's type.
template <class T>
void put(Record& r, const std::string& name, const std::vector<T>& v) {
    if constexpr (std::is_same_v<T, int32_t>) r.putInts(name, v);
    else if constexpr (std::is_same_v<T, uint32_t>) r.putUints(name, v);
    else if constexpr (std::is_same_v<T, int64_t>) r.putInt64s(name, v);
    else if constexpr (std::is_same_v<T, uint64_t>) r.putUint64s(name, v);
    else if constexpr (std::is_same_v<T, float>) r.putFloats(name, v);
    else if constexpr (std::is_same_v<T, double>) r.putDoubles(name, v);
    else static_assert(sizeof(T) == 0, "a protocol field holds i32, u32, i64, u64, f32, f64, bool or text");
}

template <class T>
Expected<std::vector<T>> get(const Record& r, const std::string& name) {
    if constexpr (std::is_same_v<T, int32_t>) return r.ints(name);
    else if constexpr (std::is_same_v<T, uint32_t>) return r.uints(name);
    else if constexpr (std::is_same_v<T, int64_t>) return r.int64s(name);
    else if constexpr (std::is_same_v<T, uint64_t>) return r.uint64s(name);
    else if constexpr (std::is_same_v<T, float>) return r.floats(name);
    else if constexpr (std::is_same_v<T, double>) return r.doubles(name);
    else static_assert(sizeof(T) == 0, "a protocol field holds i32, u32, i64, u64, f32, f64, bool or text");
}

class Writer {
public:
    explicit Writer(Record& r) : r_(r) {}
    template <class T>
    void operator()(const char* name, const T& value) {
        if constexpr (IsOptional<T>::value) {
            if (value) (*this)(name, *value);
        } else if constexpr (std::is_same_v<T, std::string>) {
            r_.putText(name, value);
        } else if constexpr (std::is_same_v<T, bool>) {
            r_.putInts(name, {value ? 1 : 0});
        } else if constexpr (IsVector<T>::value) {
            put(r_, name, value);
        } else {
            put(r_, name, std::vector<T>{value});
        }
    }
    template <class T, class... Limits>
    void operator()(const char* name, const T& value, const Limits&...) {
        (*this)(name, value);  // limits bind the reader; a writer sends what it was given
    }

private:
    Record& r_;
};

class Reader {
public:
    explicit Reader(const Record& r) : r_(r) {}
    const std::string& error() const { return error_; }

    template <class T>
    void operator()(const char* name, T& value) {
        if (!error_.empty()) return;
        if constexpr (IsOptional<T>::value) {
            if (!r_.has(name)) {
                value.reset();
                return;
            }
            typename T::value_type inner{};
            (*this)(name, inner);
            value = std::move(inner);
        } else if constexpr (std::is_same_v<T, std::string>) {
            take(r_.text(name), &value);
        } else if constexpr (std::is_same_v<T, bool>) {
            int32_t v = 0;
            (*this)(name, v);
            value = v != 0;
        } else if constexpr (IsVector<T>::value) {
            take(get<typename T::value_type>(r_, name), &value);
        } else {
            std::vector<T> one;
            take(get<T>(r_, name), &one);
            if (!error_.empty()) return;
            if (one.size() != 1) {
                error_ = "field \"" + std::string(name) + "\" holds " + std::to_string(one.size()) + " values, want 1";
                return;
            }
            value = one.front();
        }
    }

    // A field with limits: read, then each limit checked in turn, the first
    // it breaks named.
    template <class T, class Limit, class... More>
    void operator()(const char* name, T& value, const Limit& limit, const More&... more) {
        (*this)(name, value);
        if (!error_.empty()) return;
        check(name, value, limit);
        ((error_.empty() ? check(name, value, more) : void()), ...);
    }

private:
    template <class T, class U>
    void check(const char* name, const T& value, Within<U> limit) {
        if constexpr (IsVector<T>::value) {
            static_assert(std::is_same_v<typename T::value_type, U>, "a field's limits are of its own type");
        } else {
            static_assert(std::is_same_v<T, U>, "a field's limits are of its own type");
        }
        const auto outside = [&](U v) {
            if constexpr (std::is_floating_point_v<U>) {
                if (std::isnan(v)) return true;
            }
            return v < limit.lowest || v > limit.highest;
        };
        const auto range = [&] { return ", want " + text(limit.lowest) + ".." + text(limit.highest); };
        if constexpr (IsVector<T>::value) {
            for (size_t i = 0; i < value.size(); ++i) {
                if (outside(value[i])) {
                    error_ = "field \"" + std::string(name) + "\" holds " + text(value[i]) + " at index " +
                             std::to_string(i) + range();
                    return;
                }
            }
        } else if (outside(value)) {
            error_ = "field \"" + std::string(name) + "\" holds " + text(value) + range();
        }
    }

    template <class T>
    void check(const char* name, const T& value, Entries limit) {
        if (value.size() < limit.fewest || value.size() > limit.most) {
            error_ = "field \"" + std::string(name) + "\" holds " + std::to_string(value.size()) + " entries, want " +
                     std::to_string(limit.fewest) + ".." + std::to_string(limit.most);
        }
    }

    template <class T>
    void check(const char* name, const T& value, Finite) {
        const auto refuse = [&](auto v, const std::string& at) {
            error_ = "field \"" + std::string(name) + "\" holds " + text(v) + at + ", want a finite number";
        };
        if constexpr (IsVector<T>::value) {
            static_assert(std::is_floating_point_v<typename T::value_type>, "Finite limits a floating-point field");
            for (size_t i = 0; i < value.size(); ++i) {
                if (!std::isfinite(value[i])) return refuse(value[i], " at index " + std::to_string(i));
            }
        } else {
            static_assert(std::is_floating_point_v<T>, "Finite limits a floating-point field");
            if (!std::isfinite(value)) refuse(value, "");
        }
    }

    void check(const char* name, const std::string& value, const OneOf& limit) {
        std::string want;
        for (const std::string& w : limit.words) {
            if (w == value) return;
            want += (want.empty() ? "" : ", ") + w;
        }
        error_ = "field \"" + std::string(name) + "\" holds \"" + value + "\", want one of " + want;
    }

    template <class T>
    static std::string text(T v) {
        if constexpr (std::is_floating_point_v<T>) {
            std::ostringstream out;
            out << v;
            return out.str();
        } else {
            return std::to_string(v);
        }
    }

    template <class T>
    void take(Expected<T> got, T* into) {
        if (got) *into = std::move(got).value();
        else error_ = got.error();
    }

    const Record& r_;
    std::string error_;
};

}  // namespace detail

template <class Message>
void encodeInto(const Message& m, Record& r) {
    detail::Writer w(r);
    Message::fields(m, w);
}

template <class Message>
Record encode(const Message& m) {
    Record r;
    encodeInto(m, r);
    return r;
}

// Every field of Message from r; the first missing or mistyped one is named.
template <class Message>
Expected<Message> decode(const Record& r) {
    Message m{};
    detail::Reader reader(r);
    Message::fields(m, reader);
    if (!reader.error().empty()) return Error{reader.error()};
    return m;
}

// What every runner adds to every result: the device it ran on, and for a
// timed call the host's round trip to it just before (host_round_trip.h):
// context for the times, reported, never graded.
struct DeviceInfo {
    std::string device;
    int64_t smCount = 0;
    int64_t computeCapability = 0;
    std::string pciBusId;
    std::optional<double> hostRoundTripUs;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("device", s.device);
        field("sm_count", s.smCount);
        field("compute_capability", s.computeCapability);
        field("pci_bus_id", s.pciBusId);
        field("host_round_trip_us", s.hostRoundTripUs);
    }
};

// The exit status of a runner that answered with a result.
constexpr int kResultExitCode = 0;

// A kind of failure a runner reports (Failure::kind), the exit status it
// ends with after the report, and how the grader describes it. The runner
// ends with the kind's status (runner_main.cpp); the grader holds a report
// to it (runner_client.h).
struct FailureKind {
    const char* name;         // Failure::kind
    int exitCode;
    const char* description;  // the grader's words for it
};
inline constexpr FailureKind kBadInput{"bad-input", 2, "the request cannot be served as asked"};
inline constexpr FailureKind kCudaError{"cuda-error", 3, "a CUDA error"};
inline constexpr FailureKind kGuardViolation{"guard-violation", 4, "guard words overwritten"};
inline constexpr FailureKind kContractViolation{"contract-violation", 5, "an input written, or work left running"};
inline constexpr FailureKind kNoDevice{"no-device", 77, "no usable CUDA device"};
inline constexpr const FailureKind* kFailureKinds[] = {&kBadInput, &kCudaError, &kGuardViolation, &kContractViolation,
                                                       &kNoDevice};

// The kind named `name`, or nullptr when the protocol has none by that name.
inline const FailureKind* failureKindNamed(const std::string& name) {
    for (const FailureKind* k : kFailureKinds) {
        if (name == k->name) return k;
    }
    return nullptr;
}

// The runner's own failure report, sent on the channel in place of a result.
struct Failure {
    std::string kind;     // a FailureKind's name
    std::string message;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("failure_kind", s.kind);
        field("failure", s.message);
    }
};

// A subcommand that takes nothing and returns nothing but DeviceInfo.
struct Empty {
    template <class Self, class Visit>
    static void fields(Self&, Visit&&) {}
};

struct Probe {
    static constexpr const char* kName = "probe";
    using Request = Empty;
    using Result = Empty;
};

// Set (to 1) in the request of a timed call, one that holds the GPU
// exclusively. It changes only how the runner asks the grader for the GPU,
// nothing the submission can see (runner_main.cpp).
constexpr const char* kTimedCallField = "grading_timed";

// Set (to 1) when the grader runs the call under compute-sanitizer, whose
// injected threads carry the runner's name: the runner then does not count
// its threads (runner_main.cpp). Only the grader writes the request.
constexpr const char* kSanitizedCallField = "grading_sanitized";

// Whether the request sets `field` to 1, as the grader sets its flags.
inline bool flagSet(const Record& request, const char* field) {
    const Expected<int64_t> value = request.integer(field);
    return value && value.value() == 1;
}

inline bool isTimedCall(const Record& request) { return flagSet(request, kTimedCallField); }

// Set (to 1) beside kTimedCallField in a session: the runner asks for the GPU
// exclusively only around what it measures (TimedSection, runner_main.h), so its
// uploads, checks and downloads share the GPU. It writes a frame holding only
// kGpuUseField = kGpuExclusive before a measurement and kGpuShared after it, and
// waits each time for the grader's kGpuGo, which comes once the slots are
// taken. Without the field the whole call holds the GPU exclusively.
constexpr const char* kTimedSectionsField = "grading_timed_sections";
constexpr const char* kGpuUseField = "grading_gpu";
constexpr const char* kGpuExclusive = "exclusive";
constexpr const char* kGpuShared = "shared";
constexpr const char* kGpuGo = "go";

inline bool asksAroundMeasurements(const Record& request) {
    return isTimedCall(request) && flagSet(request, kTimedSectionsField);
}

// Set (to 1) in a session call that shares the GPU through a slot of its
// own: a timed call queued for the GPU waits for this call to end, so the
// runner, in its long loops (runner_main.h, lendGpuToMeasurements), at a
// point where it has synchronized and has no GPU work under way, writes a
// frame holding only kGpuUseField = kGpuLend, at most every
// kLendIntervalMs, and waits for kGpuGo: at once when no timed call waits,
// else once the waiting ones have measured and the slot is back.
constexpr const char* kLendsField = "grading_gpu_lends";
constexpr const char* kGpuLend = "lend";
constexpr int kLendIntervalMs = 10;

inline bool lendsGpu(const Record& request) { return flagSet(request, kLendsField); }

// A request for the GPU (kGpuExclusive, kGpuShared, kGpuLend) or its answer
// (kGpuGo), framed for the other side: one field, kGpuUseField.
inline std::string gpuUseFrame(const char* use) {
    Record r;
    r.putText(kGpuUseField, use);
    return r.frame();
}

// What a frame gpuUseFrame made says; empty when the frame is anything else.
inline std::string gpuUseAsked(const Record& frame) {
    if (frame.fields().size() != 1) return {};
    const Expected<std::string> use = frame.text(kGpuUseField);
    return use ? use.value() : std::string{};
}

}  // namespace grading::protocol
