// fails: day38.builds
// expect: /var/lib/dpkg/status
// Hostile submission: the solution, with a file from outside what a compile
// may read pulled into its object by the assembler (.incbin), as one could
// pull in the instructor's compiled runners from the class's build folder.
// The include check sees only the preprocessor's inputs; the compile runs in
// the compile sandbox (the system, the course's headers, the toolkit and the
// file's own folder), where the file is not there, so the compile fails
// naming it. A stand-in for the build folder: dpkg's status file, outside
// that sandbox on every Debian or Ubuntu machine.
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution

asm(".section .rodata\n"
    ".incbin \"/var/lib/dpkg/status\"\n"
    ".previous\n");
