#include "harness/record.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "harness/process.h"

namespace grading {
namespace {

// A frame: this tag, the payload's size in decimal and a newline, then the payload.
const std::string kFrameTag = "frame ";
std::string frameHeader(size_t payloadBytes) { return kFrameTag + std::to_string(payloadBytes) + "\n"; }

constexpr const char* kMagic = "gpu-grading-record 1\n";
constexpr const char* kEnd = "end\n";

size_t elementSize(FieldType type) {
    switch (type) {
        case FieldType::I32:
        case FieldType::U32:
        case FieldType::F32:
            return 4;
        case FieldType::I64:
        case FieldType::U64:
        case FieldType::F64:
            return 8;
        case FieldType::Str:
            return 1;
    }
    return 1;
}

bool typeFromName(const std::string& name, FieldType* type) {
    for (FieldType t : {FieldType::I32, FieldType::U32, FieldType::I64, FieldType::U64, FieldType::F32,
                        FieldType::F64, FieldType::Str}) {
        if (name == fieldTypeName(t)) {
            *type = t;
            return true;
        }
    }
    return false;
}

}  // namespace

const char* fieldTypeName(FieldType type) {
    switch (type) {
        case FieldType::I32: return "i32";
        case FieldType::U32: return "u32";
        case FieldType::I64: return "i64";
        case FieldType::U64: return "u64";
        case FieldType::F32: return "f32";
        case FieldType::F64: return "f64";
        case FieldType::Str: return "str";
    }
    return "?";
}

void Record::put(const std::string& name, FieldType type, const void* data, size_t count,
                 size_t size) {
    Field f;
    f.type = type;
    f.count = count;
    f.bytes.assign(static_cast<const char*>(data), count * size);
    fields_[name] = std::move(f);
}

void Record::putInts(const std::string& n, const std::vector<int32_t>& v) { put(n, FieldType::I32, v.data(), v.size(), 4); }
void Record::putUints(const std::string& n, const std::vector<uint32_t>& v) { put(n, FieldType::U32, v.data(), v.size(), 4); }
void Record::putInt64s(const std::string& n, const std::vector<int64_t>& v) { put(n, FieldType::I64, v.data(), v.size(), 8); }
void Record::putUint64s(const std::string& n, const std::vector<uint64_t>& v) { put(n, FieldType::U64, v.data(), v.size(), 8); }
void Record::putFloats(const std::string& n, const std::vector<float>& v) { put(n, FieldType::F32, v.data(), v.size(), 4); }
void Record::putFloats(const std::string& n, const float* data, size_t count) { put(n, FieldType::F32, data, count, 4); }
void Record::putDoubles(const std::string& n, const std::vector<double>& v) { put(n, FieldType::F64, v.data(), v.size(), 8); }
void Record::putText(const std::string& n, const std::string& t) { put(n, FieldType::Str, t.data(), t.size(), 1); }

template <typename T>
Expected<std::vector<T>> Record::read(const std::string& name, FieldType type) const {
    const auto it = fields_.find(name);
    if (it == fields_.end()) return Error{"the result has no field \"" + name + "\""};
    if (it->second.type != type) {
        return Error{"field \"" + name + "\" is " + fieldTypeName(it->second.type) + ", want " +
                     fieldTypeName(type)};
    }
    std::vector<T> out(it->second.count);
    if (!out.empty()) std::memcpy(out.data(), it->second.bytes.data(), it->second.bytes.size());
    return out;
}

Expected<std::vector<int32_t>> Record::ints(const std::string& n) const { return read<int32_t>(n, FieldType::I32); }
Expected<std::vector<uint32_t>> Record::uints(const std::string& n) const { return read<uint32_t>(n, FieldType::U32); }
Expected<std::vector<int64_t>> Record::int64s(const std::string& n) const { return read<int64_t>(n, FieldType::I64); }
Expected<std::vector<uint64_t>> Record::uint64s(const std::string& n) const { return read<uint64_t>(n, FieldType::U64); }
Expected<std::vector<float>> Record::floats(const std::string& n) const { return read<float>(n, FieldType::F32); }
Expected<std::vector<double>> Record::doubles(const std::string& n) const { return read<double>(n, FieldType::F64); }

Expected<std::string> Record::text(const std::string& name) const {
    const auto it = fields_.find(name);
    if (it == fields_.end()) return Error{"the result has no field \"" + name + "\""};
    if (it->second.type != FieldType::Str) {
        return Error{"field \"" + name + "\" is " + fieldTypeName(it->second.type) + ", want str"};
    }
    return it->second.bytes;
}

Expected<int64_t> Record::integer(const std::string& name) const {
    auto v = int64s(name);
    if (!v) return Error{v.error()};
    if (v->size() != 1) return Error{"field \"" + name + "\" holds " + std::to_string(v->size()) + " values, want 1"};
    return v->front();
}

Expected<double> Record::real(const std::string& name) const {
    auto v = doubles(name);
    if (!v) return Error{v.error()};
    if (v->size() != 1) return Error{"field \"" + name + "\" holds " + std::to_string(v->size()) + " values, want 1"};
    return v->front();
}

std::string Record::serialize() const { return written(false); }

std::string Record::frame() const { return written(true); }

// Sized before it is written, the frame's header with it: a field of hundreds
// of MiB is copied once, not grown by doubling or moved behind a header.
std::string Record::written(bool framed) const {
    std::vector<std::string> headers;
    size_t size = std::strlen(kMagic) + std::strlen(kEnd);
    for (const auto& [name, f] : fields_) {
        headers.push_back(name + " " + fieldTypeName(f.type) + " " + std::to_string(f.count) + "\n");
        size += headers.back().size() + f.bytes.size() + 1;
    }
    std::string out = framed ? frameHeader(size) : std::string();
    out.reserve(out.size() + size);
    out += kMagic;
    size_t k = 0;
    for (const auto& [name, f] : fields_) {
        out += headers[k++];
        out += f.bytes;
        out += '\n';
    }
    out += kEnd;
    return out;
}

Expected<Record> Record::parse(const std::string& bytes) {
    size_t pos = 0;
    Expected<Record> r = parseNext(bytes, &pos);
    if (r && pos != bytes.size()) return Error{"the result file has data after its \"end\" line"};
    return r;
}

Expected<Record> Record::parseNext(const std::string& bytes, size_t* start) {
    const size_t magicLen = std::strlen(kMagic);
    if (bytes.compare(*start, magicLen, kMagic) != 0) {
        return Error{"not a result file (it does not start with \"gpu-grading-record 1\")"};
    }
    Record r;
    size_t pos = *start + magicLen;
    while (true) {
        const size_t eol = bytes.find('\n', pos);
        if (eol == std::string::npos) {
            return Error{"the result file is truncated: no closing \"end\" line (the runner stopped before it finished writing)"};
        }
        const std::string header = bytes.substr(pos, eol - pos);
        pos = eol + 1;
        if (header == "end") {
            *start = pos;
            return r;
        }
        std::istringstream s(header);
        std::string name;
        std::string typeName;
        long long count = -1;
        FieldType type;
        if (!(s >> name >> typeName >> count) || count < 0 || !typeFromName(typeName, &type)) {
            return Error{"the result file has a malformed field header \"" + header.substr(0, 80) + "\""};
        }
        // Count checked against what is left before multiplying: a huge count
        // must not wrap the size and pass the bounds check.
        const bool fits = static_cast<unsigned long long>(count) <= (bytes.size() - pos) / elementSize(type);
        const size_t size = fits ? static_cast<size_t>(count) * elementSize(type) : 0;
        if (!fits || pos + size + 1 > bytes.size() || bytes[pos + size] != '\n') {
            return Error{"the result file is truncated inside field \"" + name + "\""};
        }
        Field f;
        f.type = type;
        f.count = static_cast<size_t>(count);
        f.bytes = bytes.substr(pos, size);
        r.fields_[name] = std::move(f);
        pos += size + 1;
    }
}

bool Record::save(const std::string& path) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const std::string bytes = serialize();
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out.flush());
}

Expected<Record> Record::load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"no result file at " + path};
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return parse(buffer.str());
}

std::string toFrame(const std::string& payload) { return frameHeader(payload.size()) + payload; }

long readOnto(int fd, std::string& buffer) {
    const size_t had = buffer.size();
    buffer.resize(had + kLargePipeBytes);
    const ssize_t n = read(fd, &buffer[had], kLargePipeBytes);
    buffer.resize(had + static_cast<size_t>(n > 0 ? n : 0));
    return static_cast<long>(n);
}

FrameStatus takeFrame(std::string& buffer, std::string* payload) {
    const size_t eol = buffer.find('\n');
    if (eol == std::string::npos) {
        // A header is short: a long run of bytes with no newline is not one.
        return buffer.size() > 32 || buffer.compare(0, std::min(buffer.size(), kFrameTag.size()), kFrameTag, 0,
                                                   std::min(buffer.size(), kFrameTag.size())) != 0
                   ? FrameStatus::Malformed
                   : FrameStatus::Incomplete;
    }
    if (buffer.compare(0, kFrameTag.size(), kFrameTag) != 0 || eol - kFrameTag.size() > 20 ||
        eol == kFrameTag.size()) {
        return FrameStatus::Malformed;
    }
    const std::string digits = buffer.substr(kFrameTag.size(), eol - kFrameTag.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos) return FrameStatus::Malformed;
    const unsigned long long size = std::stoull(digits);
    if (size > buffer.size() - eol - 1) {
        // Room for the whole frame at once, as far as a frame may be large.
        if (size <= kChannelCapBytes) buffer.reserve(eol + 1 + size);
        return FrameStatus::Incomplete;
    }
    if (size == buffer.size() - eol - 1) {  // the frame is all there is: moved, not copied
        *payload = std::move(buffer);
        payload->erase(0, eol + 1);
        buffer.clear();
        return FrameStatus::Complete;
    }
    *payload = buffer.substr(eol + 1, size);
    buffer.erase(0, eol + 1 + size);
    return FrameStatus::Complete;
}

}  // namespace grading
