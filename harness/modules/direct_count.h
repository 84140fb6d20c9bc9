/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HARNESS_DIRECT_COUNT_H
#define _HARNESS_DIRECT_COUNT_H

/* What the trampoline calls, and the trampoline, which is asm. */
void direct_count_func(void);
void direct_count_tramp(void);

#endif
