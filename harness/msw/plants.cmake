# msw's planted bugs: each pitfall of the exercise and of the course's host
# code, as an edit of the solution or the course, held to the gate that must
# catch it on the graded inputs (see grading_plant in cmake/Grading.cmake).
# Instructor-only: the student kit leaves this file out. A kernel replaced
# whole keeps the solution's body under another name (unused), so each edit
# is one line.

grading_plant(last_mismatch
  WHAT "the elimination keeps the RIGHTMOST non-zero element: one mismatch still comes out right, several give the last"
  EDIT solution/msw_kernels.cu
  FIND [[__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {]]
  REPLACE [[__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    // Planted: an element is cleared when a non-zero one lies to its right.
    for (size_t i = globalThread(); i < n; i += threadCount()) {
        if (p[i] == 0) continue;
        for (size_t j = i + 1; j < n; ++j) {
            if (reinterpret_cast<volatile uintmax_t*>(p)[j] != 0) {
                p[i] = 0;
                break;
            }
        }
    }
}

__global__ void solution_leftmost_prisoner(uintmax_t* p, size_t n) {]]
  FAILS msw.index CASES two_phase_n1000
  EXPECT [[par_find_mismatch\(d_a, b, d_large_block, n\): n = 1000, planted indices [0-9, .]+ \(.*several.*\): got [0-9]+, want [0-9]+]]
  PASSES msw.empty@two_phase msw.block@large_block_words)

grading_plant(prisoner_keeps_all
  WHAT "every thread keeps the first non-zero element of its own stride and the threads never agree on one: several survive, and par_get_section_diff's atomicMin still returns the right index"
  EDIT solution/msw_kernels.cu
  FIND [[__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {]]
  REPLACE [[__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    // Planted: no block or grid step after the per-thread one.
    bool kept = false;
    for (size_t i = globalThread(); i < n; i += threadCount()) {
        if (p[i] == 0) continue;
        if (kept) p[i] = 0;
        kept = true;
    }
}

__global__ void solution_leftmost_prisoner(uintmax_t* p, size_t n) {]]
  # Every answer is right: only the launch-by-launch contract sees it.
  FAILS msw.index CASES two_phase_n10 two_phase_n1000
  EXPECT [[naive_leftmost_prisoner \(phase [12]\), n = 10, planted indices .+: (chunk marks|flags) [0-9, ]+ and [0-9]+ survive, want only [0-9]+]]
  PASSES msw.empty@two_phase msw.block@large_block_words)

grading_plant(chunk_floor_sqrt
  WHAT "chunks of floor(sqrt(n)) words, without the + 1, in the kernel and the host: k chunks of k words miss the tail of n = k^2 + j"
  EDIT solution/msw_kernels.cu
  FIND [[    const size_t chunk = msw::chunk_size(n);]]
  REPLACE [[    const size_t chunk = msw::floor_sqrt(n);  // planted: floor(sqrt(n)), no + 1]]
  EDIT msw_host.cpp
  FIND [[size_t sqrt_chunk_words(size_t n) { return static_cast<size_t>(msw::chunk_size(n)); }

size_t large_block_words(size_t n) {
    // The course computed sqrt(n - 1) unguarded: for n = 0 it wraps to
    // sqrt(2^64 - 1) and asks for a 32 GiB block. Nothing is needed there.
    if (n == 0) return 0;
    const size_t marks = sqrt_chunk_words(n);]]
  REPLACE [[// Planted: the chunk length without the + 1; the block keeps its size.
size_t sqrt_chunk_words(size_t n) { return static_cast<size_t>(msw::floor_sqrt(n)); }

size_t large_block_words(size_t n) {
    if (n == 0) return 0;
    const size_t marks = static_cast<size_t>(msw::chunk_size(n));]]
  # n = 10: three chunks of three words cover 0..8; word 9 is never looked
  # at. A perfect square has no tail: n = 16 passes everything.
  FAILS msw.index CASES two_phase_n10
  EXPECT [[par_find_mismatch\(d_a, b, d_large_block, n\): n = 10, planted index 9 \(last word\): got 10, want 9]]
  PASSES msw.index@two_phase_n16 msw.empty@two_phase msw.block@large_block_words)

grading_plant(float_sqrt_chunk
  WHAT "the kernel's chunk length from a float square root: from n = 4097^2 it rounds floor(sqrt(n - 1)) up, and the host looks in the wrong chunk"
  EDIT solution/msw_kernels.cu
  FIND [[    const size_t chunk = msw::chunk_size(n);]]
  REPLACE [[    const size_t chunk = static_cast<size_t>(sqrtf(static_cast<float>(n - 1))) + 1;  // planted: float]]
  FAILS msw.index CASES two_phase_n16785409
  EXPECT [[n = 16785409, planted index [0-9]+ \([a-z0-9 ]+\): got 16785409, want [0-9]+]]
  PASSES msw.index@two_phase_n16777217
  LARGE_COUNTEREXAMPLE "a float square root rounds floor(sqrt(n - 1)) up only from n = 4097^2 words")

grading_plant(compare_low_half
  WHAT "par_sig_sqrt compares only the low 32 bits of each word: the first word, which differs in bit 63 only, is missed"
  EDIT solution/msw_kernels.cu
  FIND [[        const uintmax_t differs = p1[i] != p2[i] ? 1 : 0;]]
  REPLACE [[        const uintmax_t differs = static_cast<uint32_t>(p1[i]) != static_cast<uint32_t>(p2[i]) ? 1 : 0;  // planted]]
  FAILS msw.index CASES two_phase_n1000
  EXPECT [[par_find_mismatch\(d_a, b, d_large_block, n\): n = 1000, planted index 0 \(first word\): got 1000, want 0]])

grading_plant(one_thread_per_element
  WHAT "par_sig_sqrt handles one element per thread, no grid-stride loop: the host's grid is capped at a few blocks per SM, so the words past it are never compared"
  EDIT solution/msw_kernels.cu
  FIND [[    for (size_t i = globalThread(); i < n; i += threadCount()) {
        const uintmax_t differs]]
  REPLACE [[    for (size_t i = globalThread(); i < n; i += n) {  // planted: each thread its one element
        const uintmax_t differs]]
  # 2^20 words need 4096 blocks of 256; the host launches at most 8 per SM.
  FAILS msw.index CASES two_phase_n1048576
  EXPECT [[n = 1048576, planted index 1048575 \(last word\): got 1048576, want 1048575]]
  LARGE_COUNTEREXAMPLE "the host's grid has a few blocks per SM (270,336 threads on an H200): only more words than that are missed")

grading_plant(one_block
  WHAT "par_sig_sqrt strides by threadIdx.x and blockDim.x as if the grid were one block: every block redoes every word, and a block that comes after another compares a with the flags it left"
  EDIT solution/msw_kernels.cu
  FIND [[    for (size_t i = globalThread(); i < n; i += threadCount()) {
        const uintmax_t differs]]
  REPLACE [[    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {  // planted: one block assumed
        const uintmax_t differs]]
  # A race between blocks: nearly certain on 2^20 words and hundreds of
  # blocks, so a few attempts.
  FAILS msw.index CASES two_phase_n1048576 ATTEMPTS 3
  EXPECT [[n = 1048576, .+want [0-9]+]]
  LARGE_COUNTEREXAMPLE "a race between blocks, which only many blocks show")

grading_plant(write_past_marks
  WHAT "the elimination's last block loops to i <= n: in phase 1 it writes the word after the chunk marks, past the scratch block"
  EDIT solution/msw_kernels.cu
  FIND [[    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {]]
  REPLACE [[    for (size_t i = threadIdx.x; i <= n; i += blockDim.x) {  // planted: one past the end]]
  FAILS msw.index CASES two_phase_n10
  EXPECT [[after naive_leftmost_prisoner \(phase 1: keep the leftmost chunk mark, given n = 4\) in par_find_mismatch\(d_a, b, d_large_block, n\), search 0 of [0-9]+, n = 10: buffer d_large_block was written past its end, at index 15 \(it holds 15\)]])

grading_plant(precondition_block
  WHAT "the block size from the course's stated precondition, n + floor(sqrt(n)) + 2: one word too many where n is a perfect square"
  EDIT msw_host.cpp
  FIND [[    const size_t marks = sqrt_chunk_words(n);]]
  REPLACE [[    const size_t marks = static_cast<size_t>(msw::floor_sqrt(n)) + 1;  // planted: n + sqrt(n) + 2 in all]]
  FAILS msw.block
  EXPECT [[n = 1: got 4 words, want 3 \(n \+ floor\(sqrt\(n - 1\)\) \+ 2\)]]
  # A larger block does no harm.
  PASSES msw.empty@two_phase msw.index@two_phase_n16)

grading_plant(empty_underflow
  WHAT "the block size as the course wrote it, with no case for n = 0: n - 1 wraps and sqrt asks for 2^32 + 1 words"
  EDIT msw_host.cpp
  FIND [[    if (n == 0) return 0;
    const size_t marks = sqrt_chunk_words(n);]]
  REPLACE [[    const size_t marks = static_cast<size_t>(msw::floor_sqrt(n - 1)) + 1;  // planted: wraps at n = 0]]
  FAILS msw.empty CASES two_phase
  EXPECT [[large_block_words\(0\): got 4294967297 words \(34359738376 bytes\), want at most 1024: n - 1 wrapped around before the square root]]
  PASSES msw.block@large_block_words msw.index@two_phase_n10)

grading_plant(fixed_mark_table
  WHAT "phase 1 keeps its chunk marks in a table of 8192: enough up to n = 2^26 words; at 2^27 (11586 chunks) a mismatch past chunk 8191 is never marked"
  EDIT solution/msw_kernels.cu
  FIND [[        if (differs) sig_out[i / chunk] = 1;  // racing writers all store the same 1]]
  REPLACE [[        if (differs && i / chunk < 8192) sig_out[i / chunk] = 1;  // planted: a table of 8192 marks]]
  FAILS msw.index CASES two_phase_n134217728
  EXPECT [[n = 134217728, .*: got 134217728, want [0-9]+]]
  PASSES msw.index@two_phase_n16785409
  LARGE_COUNTEREXAMPLE "only more than 8192^2 = 2^26 words have more than 8192 chunk marks")
