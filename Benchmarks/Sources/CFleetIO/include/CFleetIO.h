// The benchmarks' lean fleet: epoll (which Swift's Glibc module leaves out) and reads that
// carry the kernel's receive time (SO_TIMESTAMPNS), whose cmsg macros Swift cannot call.
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/types.h>
#include <time.h>

// Turns on receive timestamps for `fd`; 0 on success.
int fleet_enable_timestamps(int fd);

// recv() into `buffer`; `stamp` gets the kernel's receive time (CLOCK_REALTIME) of the
// first bytes read, or stays zero if the kernel gave none.
ssize_t fleet_receive(int fd, void *buffer, size_t length, struct timespec *stamp);

// Runs the calling thread only when nothing else wants the CPU (SCHED_IDLE); 0 on success.
int fleet_run_when_idle(void);
