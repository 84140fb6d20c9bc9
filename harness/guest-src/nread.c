// SPDX-License-Identifier: GPL-2.0
/*
 * nread - read a file a known number of times, for the client cases.
 *
 * usage: nread [-c CPU] [-s STOPFILE] FILE N [EXPECT]
 *
 * N times: open FILE, read(2) it once with a buffer of 4 KiB, close it.
 * Each time is exactly one vfs_read() and, for a seq_file of one record
 * (/proc/version, /proc/cmdline), one call of its show function, so a
 * tracer filtering on this program's name (comm "nread", or the name of
 * a link to it) must count exactly N.  Opening, closing, exec and exit
 * read nothing through vfs_read() (a static binary: no loader).
 *
 * With EXPECT, every read must contain that text; a read that does not
 * is counted and reported.  -c pins the process to one CPU first; with
 * -s the N reads are repeated until STOPFILE exists.
 *
 * Prints "nread: N reads, M without EXPECT"; exit status 0 when every
 * read succeeded and matched, 1 otherwise, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: nread [-c CPU] [-s STOPFILE] FILE N [EXPECT]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *stop = NULL, *file, *expect;
	long i, n, total = 0, missing = 0, failed = 0;
	char buf[4097];
	cpu_set_t set;
	ssize_t len;
	int opt, fd;

	while ((opt = getopt(argc, argv, "c:s:")) != -1) {
		switch (opt) {
		case 'c':
			CPU_ZERO(&set);
			CPU_SET(atoi(optarg), &set);
			if (sched_setaffinity(0, sizeof(set), &set)) {
				perror("nread: sched_setaffinity");
				return 2;
			}
			break;
		case 's':
			stop = optarg;
			break;
		default:
			return usage();
		}
	}
	if (argc - optind < 2 || argc - optind > 3)
		return usage();
	file = argv[optind];
	n = atol(argv[optind + 1]);
	expect = argc - optind == 3 ? argv[optind + 2] : NULL;

	do {
		for (i = 0; i < n; i++) {
			fd = open(file, O_RDONLY);
			if (fd < 0) {
				failed++;
				continue;
			}
			len = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			total++;
			if (len < 0) {
				failed++;
				continue;
			}
			buf[len] = '\0';
			if (expect && !strstr(buf, expect)) {
				if (!missing)
					fprintf(stderr, "nread: %s read \"%.*s\"\n", file,
						(int)strcspn(buf, "\n"), buf);
				missing++;
			}
		}
	} while (stop && access(stop, F_OK));

	printf("nread: %ld reads, %ld without the text, %ld failed\n",
	       total, missing, failed);
	return missing || failed ? 1 : 0;
}
