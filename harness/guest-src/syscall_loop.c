// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_loop - the fixed workload of make bench's tracer rows.
 *
 * usage: syscall_loop ROUNDS
 *
 * Each round reads one byte from /dev/zero, writes one to /dev/null and
 * stats /proc/self: three system calls through the VFS, a character
 * device each way and procfs, as many kernel functions as a tracer has
 * to follow on every round.  Prints the rounds done and the nanoseconds
 * of CLOCK_MONOTONIC they took, so that a bench times the rounds alone,
 * not the program's start and exit or another program reading a clock;
 * exit status 0 if every call succeeded.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 0, i;
	int zero = open("/dev/zero", O_RDONLY);
	int null = open("/dev/null", O_WRONLY);
	struct timespec t0, t1;
	struct stat st;
	char c;

	if (zero < 0 || null < 0 || rounds <= 0) {
		fprintf(stderr, "usage: syscall_loop ROUNDS\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < rounds; i++) {
		if (read(zero, &c, 1) != 1 || write(null, &c, 1) != 1 ||
		    stat("/proc/self", &st))
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%ld %lld\n", i, (t1.tv_sec - t0.tv_sec) * 1000000000LL +
	       (t1.tv_nsec - t0.tv_nsec));
	return i == rounds ? 0 : 1;
}
