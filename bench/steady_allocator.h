// Native benchmarks time the core's work, not glibc giving memory back to the system between runs
// and faulting it in again. With glibc's defaults a block over its adaptive mmap threshold is
// unmapped when freed, and the next run page-faults it back in: the 10,000-element first snapshot
// then measured 7 to 54 ms depending on which earlier frees had moved the threshold, and two
// builds holding the very same 5.9 MiB differed by 13 MiB of RSS. Keeping freed memory for reuse
// makes the figures about the code. (In the product the core runs as wasm, on its own allocator.)
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace athena::bench {

inline void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 256 << 20);  // a fixed threshold also turns the adaptive one off
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace athena::bench
