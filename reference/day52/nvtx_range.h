#pragma once
// An NVTX range that is popped on every way out of a scope, exceptions
// included. Ranges show up as named spans in Nsight Systems.
#include <nvtx3/nvToolsExt.h>

namespace day52 {

class NvtxRange {
public:
    explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
    ~NvtxRange() { nvtxRangePop(); }
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace day52
