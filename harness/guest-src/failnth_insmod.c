// SPDX-License-Identifier: GPL-2.0
/*
 * failnth_insmod - load a module with its Nth allocation failing.
 *
 * usage: failnth_insmod N MODULE.ko [PARAMS]
 *
 * Arms /proc/self/fail-nth with N just before finit_module(2), so that
 * only the kernel's work of loading and initialising the module counts
 * (a modprobe process would spend the count on its own exec and file
 * reading first).  Prints one line: "loaded" or "refused ERRNO", then
 * "reached" if the Nth allocation happened during the load, "passed"
 * if the load made fewer than N.
 *
 * Exit status: 0 loaded, 1 refused, 2 could not try.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *params = argc > 3 ? argv[3] : "";
	char nth[16], left[16] = "";
	int fd, knob, ret, err;
	ssize_t n;

	if (argc < 3) {
		fprintf(stderr, "usage: %s N MODULE.ko [PARAMS]\n", argv[0]);
		return 2;
	}
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	knob = open("/proc/self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fd < 0 || knob < 0) {
		perror("open");
		return 2;
	}
	snprintf(nth, sizeof(nth), "%s", argv[1]);
	if (write(knob, nth, strlen(nth)) < 0) {
		perror("fail-nth");
		return 2;
	}
	ret = syscall(__NR_finit_module, fd, params, 0);
	err = errno;
	/* Reading it back allocates nothing once it is 0. */
	n = pread(knob, left, sizeof(left) - 1, 0);
	if (n > 0)
		left[n] = '\0';
	/* Disarm, in case the load made fewer than N allocations. */
	if (write(knob, "0", 1) < 0)
		perror("fail-nth");
	if (ret)
		printf("refused %s ", strerrorname_np(err) ?: "?");
	else
		printf("loaded ");
	printf("%s\n", atoi(left) ? "passed" : "reached");
	return ret ? 1 : 0;
}
