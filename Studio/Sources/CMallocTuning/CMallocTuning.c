#include "CMallocTuning.h"

#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int fg_malloc_set_arena_max(int arenas) { return mallopt(M_ARENA_MAX, arenas); }

int fg_malloc_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int fg_malloc_trim(void) { return malloc_trim(0); }
#else
int fg_malloc_set_arena_max(int arenas) { (void)arenas; return 0; }

int fg_malloc_set_mmap_threshold(int bytes) { (void)bytes; return 0; }

int fg_malloc_trim(void) { return 0; }
#endif
