// Built in place of a runner when the submission lacks the file it needs: it
// answers every call with a failure naming the path.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "harness/protocol.h"
#include "harness/runner_client.h"

int main() {
    const std::string message = std::string("the submission file ") + GRADING_MISSING_FILE + " is missing";
    std::fprintf(stderr, "error: %s\n", message.c_str());
    const std::string bytes =
        grading::protocol::encode(grading::protocol::Failure{grading::protocol::kBadInput.name, message}).serialize();
    (void)!write(grading::kChannelFd, bytes.data(), bytes.size());
    return grading::protocol::kBadInput.exitCode;
}
