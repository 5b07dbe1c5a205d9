#pragma once
// The runner protocol's file format: how a runner hands what the kernels
// produced back to the grading process, and how the grader hands inputs in.
//
//   gpu-grading-record 1\n
//   <name> <type> <count>\n<count values, raw little-endian>\n   (repeated)
//   end\n
//
// type is one of i32 u32 i64 u64 f32 f64 str (str: count bytes of text). The
// closing "end" line is what proves the writer finished: a runner that exits
// early, even with status 0, leaves a record without it, and that fails.
// protocol.h types these fields per subcommand; this layer is untyped.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/expected.h"

namespace grading {

enum class FieldType { I32, U32, I64, U64, F32, F64, Str };

struct Field {
    FieldType type = FieldType::Str;
    size_t count = 0;
    std::string bytes;
};

class Record {
public:
    void putInts(const std::string& name, const std::vector<int32_t>& v);
    void putUints(const std::string& name, const std::vector<uint32_t>& v);
    void putInt64s(const std::string& name, const std::vector<int64_t>& v);
    void putUint64s(const std::string& name, const std::vector<uint64_t>& v);
    void putFloats(const std::string& name, const std::vector<float>& v);
    void putDoubles(const std::string& name, const std::vector<double>& v);
    void putFloats(const std::string& name, const float* data, size_t count);
    void putText(const std::string& name, const std::string& text);
    void putInt(const std::string& name, int64_t value) { putInt64s(name, {value}); }
    void putDouble(const std::string& name, double value) { putDoubles(name, {value}); }

    bool has(const std::string& name) const { return fields_.count(name) != 0; }
    // Typed reads; an absent name or a different type is an Error naming both.
    Expected<std::vector<int32_t>> ints(const std::string& name) const;
    Expected<std::vector<uint32_t>> uints(const std::string& name) const;
    Expected<std::vector<int64_t>> int64s(const std::string& name) const;
    Expected<std::vector<uint64_t>> uint64s(const std::string& name) const;
    Expected<std::vector<float>> floats(const std::string& name) const;
    Expected<std::vector<double>> doubles(const std::string& name) const;
    Expected<std::string> text(const std::string& name) const;
    Expected<int64_t> integer(const std::string& name) const;  // one i64
    Expected<double> real(const std::string& name) const;      // one f64

    const std::map<std::string, Field>& fields() const { return fields_; }

    std::string serialize() const;
    // serialize() as a session's frame (toFrame), written in one pass.
    std::string frame() const;
    static Expected<Record> parse(const std::string& bytes);
    // One record starting at *pos; *pos moves past its "end" line. Several
    // records back to back (a channel) are read one call at a time.
    static Expected<Record> parseNext(const std::string& bytes, size_t* pos);
    bool save(const std::string& path) const;  // false when the write failed
    static Expected<Record> load(const std::string& path);

private:
    void put(const std::string& name, FieldType type, const void* data, size_t count,
             size_t elementSize);
    template <typename T>
    Expected<std::vector<T>> read(const std::string& name, FieldType type) const;
    std::string written(bool framed) const;

    std::map<std::string, Field> fields_;
};

const char* fieldTypeName(FieldType type);

// A runner session's wire format: each request and each answer is a frame,
// "frame <bytes>\n" and then that many bytes (a serialized Record).
std::string toFrame(const std::string& payload);
// Appends what `fd` has ready, up to a pipe's worth (process.h:
// kLargePipeBytes), to `buffer`, read straight into it:
// a frame of hundreds of MiB in few reads and no copy between. Returns
// read()'s result.
long readOnto(int fd, std::string& buffer);
enum class FrameStatus { Complete, Incomplete, Malformed };
// Takes one frame off the front of `buffer` into `payload` when it is all
// there; until then, makes room for it in `buffer`, as far as a channel
// keeps (process.h: kChannelCapBytes).
FrameStatus takeFrame(std::string& buffer, std::string* payload);

}  // namespace grading
