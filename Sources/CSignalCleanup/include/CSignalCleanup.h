#ifndef C_SIGNAL_CLEANUP_H
#define C_SIGNAL_CLEANUP_H

#include <sys/types.h>

/// What a signal handler may clean up when the process must stop at once: temporary
/// files to remove and child processes to kill. Kept in fixed C tables with atomic
/// slot states, because a handler may not take locks, allocate or touch Swift objects.

/// Registers a temporary path; returns its slot, or -1 when the table is full or the
/// path too long (the path is then left to the normal cleanup only).
int fg_cleanup_add_path(const char *path);
void fg_cleanup_remove_path(int slot);

/// Registers a child process; returns its slot, or -1 when the table is full.
int fg_cleanup_add_child(pid_t pid);
/// Unregisters a child: call it before reaping, so its pid is never signalled after
/// it may belong to another process.
void fg_cleanup_remove_child(int slot);

/// Creates the pipe the handler writes one byte to on the first signal (0, or -1 with
/// errno), so a wait in poll can include it and end at once. Call it before installing
/// the handler.
int fg_interrupt_prepare(void);
/// The pipe's read end: readable once a stop was requested, and from then on (never
/// drained). -1 before fg_interrupt_prepare.
int fg_interrupt_wake_descriptor(void);

/// The handler for SIGINT, SIGTERM and SIGHUP. The first signal sets the flag that
/// `fg_interrupt_requested` reads and makes the wake descriptor readable; a second one
/// SIGKILLs every registered child's process group, unlinks every registered path, says
/// so on stderr and exits with status 130, using only async-signal-safe calls.
void fg_interrupt_handler(int signal_number);
int fg_interrupt_requested(void);

#endif
