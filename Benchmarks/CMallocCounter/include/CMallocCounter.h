// CMallocCounter: counts heap allocations in the process that links it (cast-bench only).
//
// It defines malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign, valloc and
// pvalloc; the executable's definitions come first in the dynamic linker's lookup, so the
// Swift runtime's and Foundation's allocations go through them too. Each counts one call and
// hands the request to glibc's own allocator (__libc_malloc and friends). free is not counted.
#ifndef CMALLOC_COUNTER_H
#define CMALLOC_COUNTER_H

/// The number of allocation calls so far, every thread together.
unsigned long cast_bench_allocations(void);

#endif
