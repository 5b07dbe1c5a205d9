#pragma once
// The byte the runners fill guard zones and unwritten outputs with. Host
// gates use it to tell "never written" from "written wrong".
#include <cstdint>

namespace grading {

constexpr unsigned char kPoisonByte = 0xCB;
constexpr uint32_t kPoisonWord = 0xCBCBCBCBu;

inline const char* unwrittenNote(uint32_t value) {
    return value == kPoisonWord ? " (never written: still the runner's poison)" : "";
}

}  // namespace grading
