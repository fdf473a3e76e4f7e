#ifndef C_MALLOC_TUNING_H
#define C_MALLOC_TUNING_H

/// glibc's allocator settings, which Swift's Glibc module does not bring in (malloc.h).
/// Each returns what glibc returns: 1 when the setting was made (trim: when memory was
/// given back), 0 otherwise. Elsewhere than glibc they do nothing and return 0.

/// Caps the allocator's arenas (M_ARENA_MAX); call it before the threads start.
int fg_malloc_set_arena_max(int arenas);

/// Fixes the size from which an allocation is its own mapping (M_MMAP_THRESHOLD), which
/// also stops glibc raising it after each large free.
int fg_malloc_set_mmap_threshold(int bytes);

/// Gives the free pages of every arena back to the system (malloc_trim(0)).
int fg_malloc_trim(void);

#endif
