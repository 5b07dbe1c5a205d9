#pragma once
// Device buffers with guard words. Every buffer handed to submitted code sits
// between two guard zones filled with a known pattern; checkGuards() reads
// them back after a launch and names the buffer and the first index written
// outside it. A buffer whose useful length varies (a work list, say) can also
// poison a window just past its live end, which catches off-by-one appends
// long before they reach the allocation's end. A buffer may also ask for an
// unmapped page after its trailing guard words (GuardPages::After), so a
// kernel that reads past it faults instead of reading a plausible neighbour.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/cuda_check.h"
#include "harness/guard_layout.h"
#include "harness/poison.h"

namespace grading {

class GuardViolation : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An unmapped page after the trailing guard words, on devices with virtual
// memory management; elsewhere the buffer is a plain one and the runner says
// once, on stderr, that reads past it are not caught.
enum class GuardPages { None, After };

class GuardedBytes {
public:
    static constexpr size_t kGuardBytes = GuardLayout::kGuardBytes;
    static constexpr size_t kLiveWindowElements = 64;
    static constexpr unsigned char kGuardByte = kPoisonByte;

    GuardedBytes(std::string name, size_t count, size_t elementSize, GuardPages pages = GuardPages::None);
    ~GuardedBytes();
    GuardedBytes(const GuardedBytes&) = delete;
    GuardedBytes& operator=(const GuardedBytes&) = delete;

    const std::string& name() const { return name_; }
    size_t count() const { return layout_.count; }
    size_t elementSize() const { return layout_.elementSize; }
    void* bytes() const { return base_ + layout_.dataOffset; }

    // Fills the whole data region with the guard pattern: a read of an
    // element nobody wrote then shows up as a wrong value, not a plausible 0.
    void poison();
    // After poison() and a launch that should have written exactly the first
    // n elements: violation() then also checks the window after them.
    void markLive(size_t n) { live_ = n < count() ? n : count(); }
    // Work that did not poison first (a timed run) invalidates the mark.
    void forgetLive() { live_.reset(); }
    // The first guard byte that changed, as a message; nullopt when intact.
    std::optional<std::string> violation() const;

    // Where violation() looks: both guard zones and, after markLive, the
    // window past the live end.
    struct Zone {
        const unsigned char* begin;
        size_t bytes;
    };
    void appendZones(std::vector<Zone>& zones) const;

    // One element's bytes, read back (a message's "was" and "now").
    std::vector<unsigned char> elementBytes(size_t index) const;

protected:
    void copyIn(const void* src, size_t bytes, size_t offset = 0);
    void copyOut(void* dst, size_t bytes, size_t offset = 0) const;

private:
    using Span = GuardLayout::Span;
    std::optional<Span> liveWindow() const;
    std::optional<size_t> firstChanged(Span span) const;

    std::string name_;
    GuardLayout layout_;
    unsigned char* base_ = nullptr;
    size_t reservedBytes_ = 0;  // with guard pages: the mapping and the unmapped granule after it
    std::optional<size_t> live_;
};

template <typename T>
class GuardedBuffer : public GuardedBytes {
public:
    GuardedBuffer(std::string name, size_t count, GuardPages pages = GuardPages::None)
        : GuardedBytes(std::move(name), count, sizeof(T), pages) {}

    T* data() const { return static_cast<T*>(bytes()); }
    void upload(const std::vector<T>& values, size_t offset = 0) {
        copyIn(values.data(), values.size() * sizeof(T), offset * sizeof(T));
    }
    void upload(const T* values, size_t n) { copyIn(values, n * sizeof(T)); }
    std::vector<T> download(size_t n) const {
        std::vector<T> out(n);
        copyOut(out.data(), n * sizeof(T));
        return out;
    }
    std::vector<T> download() const { return download(count()); }
    T at(size_t i) const {
        T v;
        copyOut(&v, sizeof(T), i * sizeof(T));
        return v;
    }
};

// Inputs a launch must leave as they were, compared on the device, bit for
// bit, whatever their type: keep() copies an input's first n elements aside
// on the device (and waits, so the copy is made before any later launch on
// any stream); check() compares every kept input with its copy in one launch
// and one wait, and reads back only the first changed element, to throw a
// ContractViolation: "<after> wrote to its input <name> at <place> (was <v>,
// now <v>)". A read-back per input per launch is a round trip each, which
// adds up over a search of a thousand levels on a shared GPU.
class InputWatch {
public:
    // How the message names a changed element: where it is ("index 9" when
    // empty; a day may name a row and a column) and what it held (when
    // empty, the element type's std::to_string).
    struct Names {
        std::function<std::string(size_t index)> place;
        std::function<std::string(const void* element)> value;
    };

    InputWatch();
    ~InputWatch();
    InputWatch(const InputWatch&) = delete;
    InputWatch& operator=(const InputWatch&) = delete;

    // Again for an input already kept: a new copy. Elements of 4 or 8 bytes.
    template <typename T>
    void keep(const GuardedBuffer<T>& input, size_t n, Names names = {}) {
        keepBytes(input, n, withValueText<T>(std::move(names)));
    }
    void release(const GuardedBytes& input);  // no longer an input (the next launch's output)
    void check(const std::string& after);

    // check() in parts, for a caller that waits for the device anyway, as
    // GuardSet's: clearQueued() forgets what earlier compares saw;
    // keepQueued() is keep() with no wait (what follows on the legacy
    // stream, or on any stream that syncs with it, sees the copy made);
    // enqueueCheck() queues a compare of every kept input behind the work
    // queued so far; after a wait, throwIfChangedQueued() throws when any
    // compare since clearQueued() saw a change. It names the input and the
    // first element the device saw changed; where that element is as kept
    // again (a later keep() replaced the copy, or the write was undone), it
    // says the input is not known. check() is clearQueued(), enqueueCheck(),
    // a wait and throwIfChangedQueued().
    void clearQueued();
    template <typename T>
    void keepQueued(const GuardedBuffer<T>& input, size_t n, Names names = {}) {
        copyAside(input, n, withValueText<T>(std::move(names)));
    }
    void enqueueCheck() const;
    void throwIfChangedQueued(const std::string& after) const;

private:
    struct Kept {
        const GuardedBytes* input;  // nullptr: released, its copy's memory kept for the next keep()
        size_t n;
        std::unique_ptr<GuardedBytes> copy;
        Names names;
    };
    template <typename T>
    static Names withValueText(Names names) {
        if (!names.value) {
            names.value = [](const void* element) {
                T v;
                std::memcpy(&v, element, sizeof(T));
                return std::to_string(v);
            };
        }
        return names;
    }
    void keepBytes(const GuardedBytes& input, size_t n, Names names);
    Kept& copyAside(const GuardedBytes& input, size_t n, Names names);
    std::vector<Kept> kept_;
    unsigned long long* firstChanged_ = nullptr;  // mapped pinned memory, one per kept input (kMaxKept)
};

// Waits for the legacy default stream only, attributing errors to `where`.
// Work the submission left on a non-blocking stream of its own may still be
// running afterwards: WorkLeftCheck (work_left_check.h) catches it.
void settleDefaultStream(const std::string& where);

// The buffers one launch can touch; check() throws GuardViolation naming the
// launch and the first damaged buffer. It scans every zone in one launch and
// waits once (a read-back per zone costs a round trip each, which adds up over
// a search of a thousand levels on a shared GPU); the read-back that names
// the damage runs only when the scan saw some.
class GuardSet {
public:
    void add(const GuardedBytes& b) { buffers_.push_back(&b); }
    void check(const std::string& after) const;

    // check() in two halves, for a caller that waits for the device anyway:
    // enqueueScan() queues the scan behind everything queued so far on the
    // legacy default stream; after that wait, throwIfDamaged() reads the scan's
    // verdict and, on damage, reads the guards back to name it.
    void enqueueScan() const;  // guard_scan.cu
    // Another scan behind more work, whose damage adds to the verdict of the
    // scans since enqueueScan(): several launches, one wait.
    void enqueueAnotherScan() const;
    void throwIfDamaged(const std::string& after) const;

private:
    std::vector<const GuardedBytes*> buffers_;
    mutable std::shared_ptr<unsigned> damaged_;  // mapped pinned memory; copies share it
};

}  // namespace grading
