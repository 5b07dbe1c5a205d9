// fails: 34.stencil
// cases: tiled_course_2048
// expect: ^.*heatStepTiled wrong after 4 steps at row 1, col 1: got -26711958, want 0\.378839038 \(never written: still the runner's poison\); 4186116 cells in all were never written; smallest failing input found \([0-9]+ tries\): the course's [0-9]+ x [0-9]+ grid
// passes: 34.ring@tiled_course_2048
// The untouched exercise stub, graded as a submission: it runs to the end
// (no fault, no hang), writes nothing, and 34.stencil names the first
// interior cell, next to the hot wall, as never written; every one of the
// 2046 x 2046 interior cells still holds the runner's poison. The ring was
// never touched, so 34.ring passes (and earns nothing: it requires 34.stencil).
#include "../../../exercises/day34/heat_tiled.cu"
