#define _GNU_SOURCE
#include "CFleetIO.h"

#include <sched.h>

#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

int fleet_enable_timestamps(int fd) {
  int on = 1;
  return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
}

ssize_t fleet_receive(int fd, void *buffer, size_t length, struct timespec *stamp) {
  struct iovec vector = {.iov_base = buffer, .iov_len = length};
  char control[CMSG_SPACE(sizeof(struct timespec))];
  struct msghdr header;
  memset(&header, 0, sizeof header);
  header.msg_iov = &vector;
  header.msg_iovlen = 1;
  header.msg_control = control;
  header.msg_controllen = sizeof control;
  ssize_t count = recvmsg(fd, &header, 0);
  if (count <= 0) return count;
  for (struct cmsghdr *message = CMSG_FIRSTHDR(&header); message != NULL;
       message = CMSG_NXTHDR(&header, message)) {
    if (message->cmsg_level == SOL_SOCKET && message->cmsg_type == SCM_TIMESTAMPNS) {
      memcpy(stamp, CMSG_DATA(message), sizeof *stamp);
    }
  }
  return count;
}


int fleet_run_when_idle(void) {
  struct sched_param parameters = {.sched_priority = 0};
  // pid 0: the calling thread alone (each Linux thread is scheduled on its own).
  return sched_setscheduler(0, SCHED_IDLE, &parameters);
}
