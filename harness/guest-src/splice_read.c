// SPDX-License-Identifier: GPL-2.0
/*
 * splice_read - copy a file to another by splice(2), as trace-cmd reads
 * trace_pipe_raw.
 *
 * usage: splice_read FILE OUT
 *
 * Splices FILE into a pipe a page at a time and appends what comes out
 * of the pipe to OUT, until killed or FILE ends.  A splice of
 * trace_pipe_raw blocks until buffer_percent of the CPU's buffer is
 * written (read(2) wakes at the first event): the case
 * ring-buffer-full-wait watches OUT's size.
 *
 * Exit status 0 at the end of FILE, 1 on an error, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	int in, out, p[2];
	ssize_t n, got;

	if (argc != 3) {
		fprintf(stderr, "usage: splice_read FILE OUT\n");
		return 2;
	}
	in = open(argv[1], O_RDONLY);
	out = open(argv[2], O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (in < 0 || out < 0 || pipe(p)) {
		perror("splice_read");
		return 1;
	}
	for (;;) {
		n = splice(in, NULL, p[1], NULL, sizeof(buf), 0);
		if (n < 0) {
			perror("splice_read: splice");
			return 1;
		}
		if (!n)
			return 0;
		for (; n > 0; n -= got) {
			got = read(p[0], buf, sizeof(buf));
			if (got <= 0 || write(out, buf, got) != got) {
				perror("splice_read: copy");
				return 1;
			}
		}
	}
}
