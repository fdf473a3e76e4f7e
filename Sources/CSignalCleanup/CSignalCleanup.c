#define _GNU_SOURCE
#include "CSignalCleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

enum { PATH_SLOTS = 256, CHILD_SLOTS = 64 };
enum { FREE = 0, CLAIMED = 1, READY = 2 };

static char paths[PATH_SLOTS][PATH_MAX];
static int path_states[PATH_SLOTS];
/// Slots are taken round-robin, so a slot freed while a handler reads it is not
/// rewritten until 255 other paths have come and gone.
static unsigned next_path;
static pid_t children[CHILD_SLOTS];

int fg_cleanup_add_path(const char *path) {
    size_t length = strlen(path);
    if (length >= PATH_MAX) return -1;
    for (int tries = 0; tries < PATH_SLOTS; tries++) {
        unsigned slot = __atomic_fetch_add(&next_path, 1, __ATOMIC_RELAXED) % PATH_SLOTS;
        int expected = FREE;
        if (__atomic_compare_exchange_n(&path_states[slot], &expected, CLAIMED, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            memcpy(paths[slot], path, length + 1);
            __atomic_store_n(&path_states[slot], READY, __ATOMIC_RELEASE);
            return (int)slot;
        }
    }
    return -1;
}

void fg_cleanup_remove_path(int slot) {
    if (slot >= 0 && slot < PATH_SLOTS) __atomic_store_n(&path_states[slot], FREE, __ATOMIC_RELEASE);
}

int fg_cleanup_add_child(pid_t pid) {
    for (int slot = 0; slot < CHILD_SLOTS; slot++) {
        pid_t expected = 0;
        if (__atomic_compare_exchange_n(&children[slot], &expected, pid, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) return slot;
    }
    return -1;
}

void fg_cleanup_remove_child(int slot) {
    if (slot >= 0 && slot < CHILD_SLOTS) __atomic_store_n(&children[slot], 0, __ATOMIC_RELEASE);
}

/* Whether any temporary file was removed. */
static int cleanup_now(void) {
    int removed = 0;
    for (int slot = 0; slot < CHILD_SLOTS; slot++) {
        pid_t pid = __atomic_load_n(&children[slot], __ATOMIC_ACQUIRE);
        /* Its group: a wrapper script's own children go too. */
        if (pid > 0) kill(-pid, SIGKILL);
    }
    for (int slot = 0; slot < PATH_SLOTS; slot++) {
        if (__atomic_load_n(&path_states[slot], __ATOMIC_ACQUIRE) == READY && unlink(paths[slot]) == 0) removed = 1;
    }
    return removed;
}

static volatile sig_atomic_t interrupted;
/* Read end, write end; -1 until fg_interrupt_prepare. */
static int wake_pipe[2] = {-1, -1};

int fg_interrupt_prepare(void) {
    if (wake_pipe[0] >= 0) return 0;
    return pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK);
}

int fg_interrupt_wake_descriptor(void) { return wake_pipe[0]; }

void fg_interrupt_handler(int signal_number) {
    (void)signal_number;
    /* The interrupted code may be about to read errno. */
    int saved = errno;
    /* Atomic, as the reader on another thread loads it: a lock-free atomic is
       async-signal-safe, and a plain store races with that load. */
    if (__atomic_exchange_n(&interrupted, 1, __ATOMIC_RELAXED)) {
        static const char removed[] = "fluidgradient: interrupted again; stopped at once, partial output removed\n";
        static const char stopped[] = "fluidgradient: interrupted again; stopped at once\n";
        ssize_t ignored = cleanup_now() ? write(STDERR_FILENO, removed, sizeof removed - 1)
                                        : write(STDERR_FILENO, stopped, sizeof stopped - 1);
        (void)ignored;
        _exit(130);
    }
    if (wake_pipe[1] >= 0) {
        ssize_t ignored = write(wake_pipe[1], "!", 1);
        (void)ignored;
    }
    errno = saved;
}

int fg_interrupt_requested(void) { return __atomic_load_n(&interrupted, __ATOMIC_RELAXED); }
