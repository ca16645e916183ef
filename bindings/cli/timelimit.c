/* SPDX-License-Identifier: Apache-2.0 */
/* timelimit.c - `--time-limit SECONDS`: one deadline for the whole command. A real-time
 * interval timer raises the cancellation flag that every context of the command watches
 * (vxp_context_set_cancel_flag), so whichever library call is under way when the time runs
 * out (parse, machine loading, analysis, a report, CUDA generation) stops with
 * VXP_ECANCELLED. A per-call budget (vxp_context_set_time_budget) would bound each call
 * but not the command, which makes several. */
#define _XOPEN_SOURCE 700 /* setitimer */
#include <signal.h>
#include <string.h>
#include <sys/time.h>

#include "cli.h"

/* Written by the signal handler, read by the library with atomic loads. A command is one
 * thread and one deadline, so process-wide state is what it is. */
static size_t time_limit_flag;
static uint64_t time_limit_us;

static void on_alarm(int sig) {
  (void)sig;
  __atomic_store_n(&time_limit_flag, 1, __ATOMIC_RELAXED);
}

int vxpeak_time_limit_start(uint64_t microseconds) {
  if (!microseconds) return 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART; /* reads and writes go on; only the flag says stop */
  sigemptyset(&sa.sa_mask);
  struct itimerval when;
  memset(&when, 0, sizeof(when));
  when.it_value.tv_sec = (time_t)(microseconds / 1000000u);
  when.it_value.tv_usec = (suseconds_t)(microseconds % 1000000u);
  if (sigaction(SIGALRM, &sa, NULL) != 0 || setitimer(ITIMER_REAL, &when, NULL) != 0) return -1;
  time_limit_us = microseconds;
  return 0;
}

void vxpeak_time_limit_watch(vxp_context *ctx) {
  if (time_limit_us) vxp_context_set_cancel_flag(ctx, &time_limit_flag);
}

bool vxpeak_time_limit_reached(uint64_t *microseconds) {
  if (!time_limit_us || !__atomic_load_n(&time_limit_flag, __ATOMIC_RELAXED)) return false;
  *microseconds = time_limit_us;
  return true;
}
