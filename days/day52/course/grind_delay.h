#pragma once
// A grading hook in grindFma, not part of the lesson. The 52.stress gate
// makes the timing adversarial: it asks grindFma to hold every thread of a
// launch for a while before it starts, chosen by the launch's output buffer.
// A held upstream means a branch that was not made to wait reads the zeroed
// middle buffer; a held branch means a join that was not made to wait reads
// that branch's poisoned buffer. The arithmetic is unchanged, so the result
// of a correctly ordered diamond is the same as without the hook.
#include <cuda_runtime.h>

namespace day52 {

constexpr int kMaxHeldOutputs = 5;

struct GrindHold {
    const float* out[kMaxHeldOutputs];     // a launch writing here is held...
    unsigned long long ns[kMaxHeldOutputs];  // ...this many nanoseconds (0: not held)
};

// Installs the table for later launches (a synchronous copy). Throws
// grading::CudaError.
void setGrindHold(const GrindHold& hold);
// No launch is held.
void clearGrindHold();

}  // namespace day52
